import type { MarketStats as Stats } from '@scn/proto';
import { formatNumber } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import '../market.css';

/** docs/product/screens.md#the-shell-and-the-market-screens: Total Servers, Countries, Avg. Reliability (%), Avg. Ping (ms). */
export function MarketStats({ stats }: { stats: Readonly<Stats> | null }) {
  const { t, locale } = useT();
  const show = (value: number | undefined) =>
    value === undefined ? '—' : formatNumber(value, locale);
  const tiles = [
    { label: t('market.stats.totalServers'), value: show(stats?.totalServers), id: 'total' },
    { label: t('market.stats.countries'), value: show(stats?.totalCountries), id: 'countries' },
    {
      label: t('market.stats.avgReliability'),
      value: show(stats?.averageReliability),
      id: 'reliability',
    },
    { label: t('market.stats.avgPing'), value: show(stats?.averagePing), id: 'ping' },
  ];
  return (
    <dl className="market-stats" data-testid="market-stats">
      {tiles.map((tile) => (
        <div key={tile.id} className="card market-stats__tile">
          <dt>{tile.label}</dt>
          <dd data-testid={`market-stat-${tile.id}`}>{tile.value}</dd>
        </div>
      ))}
    </dl>
  );
}
