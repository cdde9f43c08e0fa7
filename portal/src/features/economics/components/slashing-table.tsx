import { ECONOMICS, slashPercent } from '@scn/proto';
import { rewardAfterSlash, SLASH_EXAMPLE_RELIABILITIES } from '../economics-examples';
import { useEconomicsT } from '../use-econ-format';
import { DataTable } from './data-table';
import '../economics.css';

const EXAMPLE_BASE_SSL = 1000;

type Status = 'full' | 'reduced' | 'hidden';

function statusOf(reliability: number): Status {
  if (reliability >= 100) return 'full';
  if (reliability >= ECONOMICS.hideBelowReliabilityPercent) return 'reduced';
  return 'hidden';
}

const STATUS_CLASS: Record<Status, string> = { full: 'ok', reduced: 'warn', hidden: 'bad' };

/** docs/product/constants.md#billing-and-the-economy: slash % = 2 x (1 - reliability) x 100, shown for a 1,000 SSL base reward. */
export function SlashingTable() {
  const { t, f } = useEconomicsT();
  return (
    <DataTable
      caption={t('reliability.table.caption', { base: f.ssl(EXAMPLE_BASE_SSL) })}
      head={[
        t('reliability.table.reliability'),
        t('reliability.table.slash'),
        t('reliability.table.paid'),
        t('reliability.table.status'),
      ]}
      numeric={[1, 2]}
      rows={SLASH_EXAMPLE_RELIABILITIES.map((reliability) => {
        const status = statusOf(reliability);
        return [
          f.pct(reliability),
          f.pct(slashPercent(reliability)),
          f.ssl(rewardAfterSlash(EXAMPLE_BASE_SSL, reliability)),
          <span key="status" className={`econ-status econ-status--${STATUS_CLASS[status]}`}>
            {t(`reliability.status.${status}`)}
          </span>,
        ];
      })}
    />
  );
}
