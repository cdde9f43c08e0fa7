import { ECONOMICS } from '@scn/proto';
import { useEconomicsT } from '../use-econ-format';
import { DataTable } from './data-table';

/** docs/product/constants.md#billing-and-the-economy: share of monthly earnings to stake each year to be protected from the halving. */
export function StakingScheduleTable() {
  const { t, f } = useEconomicsT();
  const years = ECONOMICS.stakingShareByYear;
  return (
    <DataTable
      caption={t('staking.table.caption')}
      head={[t('staking.table.age'), t('staking.table.share')]}
      rows={[
        ...years.map((share, index) => [
          t('staking.table.year', { year: f.num(index + 1) }),
          f.pct(share),
        ]),
        [
          t('staking.table.after', { year: f.num(ECONOMICS.hardwareAgeYears) }),
          t('staking.table.cut', { percent: f.pct(ECONOMICS.hardwareAgeCutPercent) }),
        ],
      ]}
    />
  );
}
