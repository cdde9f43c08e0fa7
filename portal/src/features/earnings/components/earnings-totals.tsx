import type { Earnings } from '@scn/proto';
import type { Snapshot } from 'valtio';
import { Amount } from './amount';

const TOTALS: ReadonlyArray<[keyof Earnings['totals'], string]> = [
  ['incomeMicro', 'Node income'],
  ['walletMicro', 'To the node wallet'],
  ['autoStakedMicro', 'Auto-staked'],
  ['escrowedMicro', 'To escrows'],
  ['stakingMicro', 'Staking income'],
];

/** The month's totals over every server, with the staking income. */
export function EarningsTotals({ totals }: { totals: Snapshot<Earnings['totals']> }) {
  return (
    <dl className="earnings-figures earnings-totals" data-testid="earnings-totals">
      {TOTALS.map(([key, label]) => (
        <div key={key}>
          <dt>{label}</dt>
          <dd>
            <Amount micro={totals[key]} testId={`total-${key}`} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
