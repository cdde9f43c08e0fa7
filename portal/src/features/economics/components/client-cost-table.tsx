import { PRICING } from '@scn/proto';
import { formatSsl, formatUsdOfSsl } from '../economics-format';
import { billingChangeCostSsl, hourlyBlockCostSsl, monthlyCostSsl } from '../economics-examples';
import { DataTable } from './data-table';
import '../economics.css';

const SERVER_COUNTS = [1, 3, 5] as const;

function cost(ssl: number) {
  return (
    <span className="econ-cost">
      <span>{formatSsl(ssl)}</span>
      <span className="econ-cost__usd">{formatUsdOfSsl(ssl)}</span>
    </span>
  );
}

/** Worked examples: what 1, 3 and 5 servers cost under each billing type (spec 02 §9). */
export function ClientCostTable() {
  return (
    <DataTable
      caption="What a subscription costs"
      head={[
        'Servers',
        `Monthly (${PRICING.monthlyValidityDays} days)`,
        `Hourly block (${PRICING.hourlyBlockHours} h upfront)`,
        'Change billing type',
      ]}
      numeric={[1, 2, 3]}
      rows={SERVER_COUNTS.map((count) => [
        `${count} server${count === 1 ? '' : 's'}`,
        cost(monthlyCostSsl(count)),
        cost(hourlyBlockCostSsl(count)),
        cost(billingChangeCostSsl(count)),
      ])}
    />
  );
}
