import { TrafficChart } from '../../../components/traffic-chart/traffic-chart';
import {
  trafficChartModel,
  type TrafficPoint,
  type TrafficSeries,
} from '../../../components/traffic-chart/traffic-chart-model';
import { useT } from '../../../lib/i18n/i18n';
import { getServerTraffic } from '../api/get-server-traffic';

/** The node dashboard: a server's traffic per day, its subscriptions together, download and upload. */
export function ServerTrafficChart({
  ownerUuid,
  serverId,
  refreshKey,
}: {
  ownerUuid: string;
  serverId: string;
  refreshKey?: unknown;
}) {
  const { t, locale } = useT('node');
  const load = async (signal: AbortSignal) => {
    const response = await getServerTraffic(ownerUuid, serverId, signal);
    const series: TrafficSeries[] = [
      { key: 'download', label: t('traffic.download') },
      { key: 'upload', label: t('traffic.upload') },
    ];
    const points: TrafficPoint[] = response.days.flatMap((d) => [
      { date: d.date, series: 'download', bytes: d.downloadBytes },
      { date: d.date, series: 'upload', bytes: d.uploadBytes },
    ]);
    return trafficChartModel(response.from, response.to, series, points);
  };
  return (
    <TrafficChart
      title={t('traffic.title')}
      load={load}
      refreshKey={refreshKey}
      deps={[ownerUuid, serverId, locale]}
    />
  );
}
