import { PRICING } from '@scn/proto';
import { billingChangeCostSsl, hourlyBlockCostSsl, monthlyCostSsl } from '../economics-examples';
import { type EconFormat, useEconomicsT } from '../use-econ-format';
import { DataTable } from './data-table';
import '../economics.css';

const SERVER_COUNTS = [1, 3, 5] as const;

function cost(f: EconFormat, ssl: number) {
  return (
    <span className="econ-cost">
      <span>{f.ssl(ssl)}</span>
      <span className="econ-cost__usd">{f.usdOfSsl(ssl)}</span>
    </span>
  );
}

/** Worked examples: what 1, 3 and 5 servers cost under each billing type (docs/product/constants.md#billing-and-the-economy). */
export function ClientCostTable() {
  const { t, f } = useEconomicsT();
  return (
    <DataTable
      caption={t('client.costTable.caption')}
      head={[
        t('client.costTable.servers'),
        t('client.costTable.monthly', { days: PRICING.monthlyValidityDays }),
        t('client.costTable.hourly', { hours: PRICING.hourlyBlockHours }),
        t('client.costTable.change'),
      ]}
      numeric={[1, 2, 3]}
      rows={SERVER_COUNTS.map((count) => [
        t('client.costTable.count', { count }),
        cost(f, monthlyCostSsl(count)),
        cost(f, hourlyBlockCostSsl(count)),
        cost(f, billingChangeCostSsl(count)),
      ])}
    />
  );
}
