import { useId, useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { saveAutoStake, useStaking } from '../store';

/**
 * spec 02 §6: the share of each payout staked automatically, 0 to 100%. The panel keys it by the
 * saved percent, so a saved value starts the field afresh.
 */
export function AutoStakeForm({ ownerUuid, percent }: { ownerUuid: string; percent: number }) {
  const staking = useStaking();
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
        Automatic staking (% of each payout)
      </label>
      <div className="staking-form__row">
        <input
          id={inputId}
          className="input staking-form__percent"
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
          {staking.busy === 'auto' ? 'Saving...' : 'Save'}
        </Button>
      </div>
      {notice && (
        <Banner tone={notice.tone} data-testid={`auto-stake-${notice.tone}`}>
          {notice.text}
        </Banner>
      )}
    </form>
  );
}
