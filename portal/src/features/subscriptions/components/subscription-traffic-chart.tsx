import { TrafficChart } from '../../../components/traffic-chart/traffic-chart';
import {
  trafficChartModel,
  type TrafficPoint,
  type TrafficSeries,
} from '../../../components/traffic-chart/traffic-chart-model';
import { useT } from '../../../lib/i18n/i18n';
import { getSubscriptionTraffic } from '../api/get-subscription-traffic';

/** The client dashboard: a subscription's traffic per day, stacked by server (upload + download). */
export function SubscriptionTrafficChart({
  ownerUuid,
  subscriptionId,
  servers,
  refreshKey,
}: {
  ownerUuid: string;
  subscriptionId: string;
  servers: readonly { id: string; name: string }[];
  refreshKey?: unknown;
}) {
  const { t } = useT('client');
  const load = async (signal: AbortSignal) => {
    const response = await getSubscriptionTraffic(ownerUuid, subscriptionId, signal);
    const named = new Map(servers.map((s) => [s.id, s.name]));
    const series: TrafficSeries[] = [...new Set(response.days.map((d) => d.serverId))]
      .sort((a, b) => (named.get(a) ?? a).localeCompare(named.get(b) ?? b))
      .map((id) => ({ key: id, label: named.get(id) ?? t('traffic.formerServer') }));
    const points: TrafficPoint[] = response.days.map((d) => ({
      date: d.date,
      series: d.serverId,
      bytes: String(BigInt(d.uploadBytes) + BigInt(d.downloadBytes)),
    }));
    return trafficChartModel(response.from, response.to, series, points);
  };
  return (
    <TrafficChart
      title={t('traffic.title')}
      load={load}
      refreshKey={refreshKey}
      deps={[ownerUuid, subscriptionId, servers.map((s) => `${s.id}:${s.name}`).join(',')]}
    />
  );
}
