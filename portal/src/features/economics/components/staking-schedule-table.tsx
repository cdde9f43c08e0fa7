import { ECONOMICS } from '@scn/proto';
import { DataTable } from './data-table';

/** spec 02 §9: share of monthly earnings to stake each year to be protected from the halving. */
export function StakingScheduleTable() {
  const years = ECONOMICS.stakingShareByYear;
  return (
    <DataTable
      caption="Halving protection schedule"
      head={['Node age', 'Stake of monthly earnings']}
      rows={[
        ...years.map((share, index) => [`Year ${index + 1}`, `${share}%`]),
        [
          `After year ${ECONOMICS.hardwareAgeYears}`,
          `Rewards and allowed clients cut ${ECONOMICS.hardwareAgeCutPercent}% unless staking requirements were met`,
        ],
      ]}
    />
  );
}
