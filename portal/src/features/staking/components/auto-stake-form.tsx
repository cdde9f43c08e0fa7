import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n/i18n';
import { saveAutoStake, useStakingActionState } from '../store';
import { StakingNotice } from './staking-notice';

/**
 * spec 02 §6: the share of each payout staked automatically, 0 to 100%. The panel keys it by the
 * saved percent, so a saved value starts the field afresh.
 */
export function AutoStakeForm({ ownerUuid, percent }: { ownerUuid: string; percent: number }) {
  const { t } = useT('earn');
  const staking = useStakingActionState(ownerUuid);
  const [text, setText] = useState(String(percent));
  const inputId = useId();
  const notice = staking.notice?.action === 'auto' ? staking.notice : null;

  return (
    <form
      className="staking-form"
      data-testid="auto-stake-form"
      onSubmit={(event) => {
        event.preventDefault();
        void saveAutoStake(ownerUuid, text);
      }}
    >
      <label htmlFor={inputId} className="field__label">
        {t('staking.auto.label')}
      </label>
      <div className="staking-form__row">
        <input
          id={inputId}
          className="input staking-form__percent"
          dir="ltr"
          inputMode="numeric"
          autoComplete="off"
          value={text}
          onChange={(event) => setText(event.target.value)}
          data-testid="auto-stake-percent"
        />
        <Button
          type="submit"
          variant="secondary"
          disabled={staking.busy !== null}
          data-testid="auto-stake-save"
        >
          {staking.busy === 'auto' ? t('staking.auto.saving') : t('staking.auto.save')}
        </Button>
      </div>
      {notice && <StakingNotice notice={notice} testId={`auto-stake-${notice.tone}`} />}
    </form>
  );
}
