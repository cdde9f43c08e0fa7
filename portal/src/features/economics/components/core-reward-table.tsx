import { CORE_REWARD_TIERS } from '@scn/proto';
import { formatNumber } from '../economics-format';
import { DataTable } from './data-table';

/** spec 02 §9: monthly base reward, client allowance and bandwidth by core count. */
export function CoreRewardTable() {
  return (
    <DataTable
      caption="Core reward tiers"
      head={['CPU cores', 'Multiplier', 'Base reward / month', 'Allowed clients', 'Min. bandwidth']}
      numeric={[1, 2, 3, 4]}
      // On phones the multiplier (implied by the reward) and bandwidth give way to the money.
      hideOnNarrow={[1, 4]}
      rows={CORE_REWARD_TIERS.map((tier) => [
        tier.cores,
        `${formatNumber(tier.multiplier, 1)}x`,
        `${formatNumber(tier.monthlySsl)} SSL`,
        formatNumber(tier.allowedClients),
        `${formatNumber(tier.minMbps)} Mbps`,
      ])}
    />
  );
}
