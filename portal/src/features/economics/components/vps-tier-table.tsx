import { VPS_TIERS } from '@scn/proto';
import { formatNumber } from '../economics-format';
import { DataTable } from './data-table';
import '../economics.css';

/**
 * spec 01 §9: the VPS tiers offered by the node setup wizard, with the base reward that makes
 * each tier's monthly earnings at full capacity and 100% reliability (docs/economics.md).
 */
export function VpsTierTable() {
  return (
    <DataTable
      caption="VPS tiers of the node setup wizard"
      head={['Tier', 'Specs', 'Max clients', 'Base reward', 'Earnings / month', 'USD value']}
      numeric={[2, 3, 4, 5]}
      // The tier name already says cores and RAM: phones drop the full specs column.
      hideOnNarrow={[1]}
      rows={VPS_TIERS.map((tier) => [
        <span className="econ-tier-name" key="name">
          {tier.name}
          {tier.recommended ? <span className="econ-badge">Recommended</span> : null}
        </span>,
        `${tier.vcpu} vCPU · ${tier.ramGb} GB RAM · ${tier.ssdGb} GB SSD`,
        formatNumber(tier.maxClients),
        `${formatNumber(tier.baseRewardSsl)} SSL`,
        `${formatNumber(tier.monthlyEarningsSsl)} SSL`,
        tier.usdValue,
      ])}
    />
  );
}
