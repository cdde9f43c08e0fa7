import type { MarketStats as Stats } from '@scn/proto';
import '../market.css';

/** spec 01 §2: Total Servers, Countries, Avg. Reliability (%), Avg. Ping (ms). */
export function MarketStats({ stats }: { stats: Readonly<Stats> | null }) {
  const tiles = [
    { label: 'Total Servers', value: stats ? String(stats.totalServers) : '—', id: 'total' },
    { label: 'Countries', value: stats ? String(stats.totalCountries) : '—', id: 'countries' },
    {
      label: 'Avg. Reliability (%)',
      value: stats ? String(stats.averageReliability) : '—',
      id: 'reliability',
    },
    { label: 'Avg. Ping (ms)', value: stats ? String(stats.averagePing) : '—', id: 'ping' },
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
