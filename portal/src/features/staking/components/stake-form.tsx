import { useId, useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { moveStake, useStaking } from '../store';

/** Stake from the node wallet, or unstake what is unlocked, by an amount in SSL. */
export function StakeForm({ ownerUuid, onMoved }: { ownerUuid: string; onMoved: () => void }) {
  const staking = useStaking();
  const [amount, setAmount] = useState('');
  const inputId = useId();
  const notice = staking.notice && staking.notice.action !== 'auto' ? staking.notice : null;

  const submit = async (action: 'stake' | 'unstake') => {
    if (await moveStake(ownerUuid, action, amount)) {
      setAmount('');
      onMoved();
    }
  };

  return (
    <form
      className="staking-form"
      data-testid="stake-form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit('stake');
      }}
    >
      <label htmlFor={inputId} className="field__label">
        Amount (SSL)
      </label>
      <div className="staking-form__row">
        <input
          id={inputId}
          className="input"
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          data-testid="stake-amount"
        />
        <Button
          type="submit"
          variant="primary"
          disabled={staking.busy !== null}
          data-testid="stake-submit"
        >
          {staking.busy === 'stake' ? 'Staking...' : 'Stake'}
        </Button>
        <Button
          type="button"
          variant="secondary"
          disabled={staking.busy !== null}
          onClick={() => void submit('unstake')}
          data-testid="unstake-submit"
        >
          {staking.busy === 'unstake' ? 'Unstaking...' : 'Unstake'}
        </Button>
      </div>
      {notice && (
        <Banner tone={notice.tone} data-testid={`stake-${notice.tone}`}>
          {notice.text}
        </Banner>
      )}
    </form>
  );
}
