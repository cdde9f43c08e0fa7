import { ECONOMICS, slashPercent } from '@scn/proto';
import { formatNumber } from '../economics-format';
import { rewardAfterSlash, SLASH_EXAMPLE_RELIABILITIES } from '../economics-examples';
import { DataTable } from './data-table';
import '../economics.css';

const EXAMPLE_BASE_SSL = 1000;

function statusOf(reliability: number): string {
  if (reliability >= 100) return 'Full rewards';
  if (reliability >= ECONOMICS.hideBelowReliabilityPercent) return 'Listed, reduced rewards';
  return 'Hidden, rewards frozen';
}

/** spec 02 §9: slash % = 2 x (1 - reliability) x 100, shown for a 1,000 SSL base reward. */
export function SlashingTable() {
  return (
    <DataTable
      caption={`Slashing by reliability, on a ${formatNumber(EXAMPLE_BASE_SSL)} SSL base reward`}
      head={['Reliability', 'Slash', 'Reward paid', 'Status']}
      numeric={[1, 2]}
      rows={SLASH_EXAMPLE_RELIABILITIES.map((reliability) => [
        `${reliability}%`,
        `${formatNumber(slashPercent(reliability))}%`,
        `${formatNumber(rewardAfterSlash(EXAMPLE_BASE_SSL, reliability))} SSL`,
        <span
          key="status"
          className={`econ-status econ-status--${reliability >= 100 ? 'ok' : reliability >= ECONOMICS.hideBelowReliabilityPercent ? 'warn' : 'bad'}`}
        >
          {statusOf(reliability)}
        </span>,
      ])}
    />
  );
}
