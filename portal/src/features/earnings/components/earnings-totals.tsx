import type { Earnings } from '@scn/proto';
import type { Snapshot } from 'valtio';
import { useT } from '../../../lib/i18n/i18n';
import { Amount } from './amount';

const TOTALS = [
  'incomeMicro',
  'walletMicro',
  'autoStakedMicro',
  'escrowedMicro',
  'stakingMicro',
] as const satisfies ReadonlyArray<keyof Earnings['totals']>;

/** The month's totals over every server, with the staking income. */
export function EarningsTotals({ totals }: { totals: Snapshot<Earnings['totals']> }) {
  const { t } = useT('earn');
  return (
    <dl className="earnings-figures earnings-totals" data-testid="earnings-totals">
      {TOTALS.map((key) => (
        <div key={key}>
          <dt>{t(`earnings.total.${key}`)}</dt>
          <dd>
            <Amount micro={totals[key]} testId={`total-${key}`} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
