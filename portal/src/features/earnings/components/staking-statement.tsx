import type { StakingStatement } from '@scn/proto';
import { useId } from 'react';
import type { Snapshot } from 'valtio';
import { useT } from '../../../lib/i18n/i18n';
import { Amount } from './amount';

/** The month's staking income (docs/product/constants.md#billing-and-the-economy: 12% a year on the stake held all month). */
export function StakingStatementView({ staking }: { staking: Snapshot<StakingStatement> }) {
  const { t } = useT('earn');
  const titleId = useId();
  return (
    <article className="earnings-server" aria-labelledby={titleId} data-testid="staking-statement">
      <header className="earnings-server__header">
        <h3 id={titleId}>{t('earnings.staking.title')}</h3>
      </header>
      <dl className="earnings-figures">
        <div>
          <dt>{t('earnings.staking.start')}</dt>
          <dd>
            <Amount micro={staking.stakeAtStartMicro} testId="staking-start" />
          </dd>
        </div>
        <div>
          <dt>{t('earnings.staking.end')}</dt>
          <dd>
            <Amount micro={staking.stakeAtEndMicro} testId="staking-end" />
          </dd>
        </div>
        <div>
          <dt>{t('earnings.staking.income')}</dt>
          <dd>
            <Amount micro={staking.incomeMicro} testId="staking-income" />
          </dd>
        </div>
        <div>
          <dt>{t('earnings.staking.paid')}</dt>
          <dd>
            <Amount micro={staking.paidMicro} testId="staking-paid" />
          </dd>
        </div>
      </dl>
      <p className="small muted" data-testid="staking-explanation">
        {staking.explanation}
      </p>
    </article>
  );
}
