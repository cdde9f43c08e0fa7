import { ECONOMICS } from '@scn/proto';
import { formatMicroSsl } from '../../../lib/money';
import { useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { formatDate } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import { parseAmount } from '../staking-format';
import { checkStakeAmount, moveStake, useStakingActionState } from '../store';
import { StakingFieldForm } from './staking-field-form';

/**
 * Stake from the node wallet, or unstake what is unlocked, by an amount in SSL. A stake is
 * confirmed first, stating its consequence: it is locked ECONOMICS.stakeLockDays days and cannot
 * be taken back before.
 */
export function StakeForm({ ownerUuid, onMoved }: { ownerUuid: string; onMoved: () => void }) {
  const { t, locale } = useT('earn');
  const staking = useStakingActionState(ownerUuid);
  const [amount, setAmount] = useState('');
  const [confirming, setConfirming] = useState<{ micro: string; unlocksAt: number } | null>(null);

  const submit = async (action: 'stake' | 'unstake', text: string) => {
    if (await moveStake(ownerUuid, action, text)) {
      setAmount('');
      onMoved();
    }
  };

  const askToStake = () => {
    const parsed = parseAmount(amount);
    if (!checkStakeAmount(ownerUuid, 'stake', amount) || 'error' in parsed) return;
    // The day the stake would unlock if made now (the server's lock decides the instant).
    setConfirming({
      micro: parsed.amountMicro,
      unlocksAt: Date.now() + ECONOMICS.stakeLockDays * 86_400_000,
    });
  };

  return (
    <StakingFieldForm
      testId="stake-form"
      noticePrefix="stake"
      label={t('staking.form.amount')}
      input={{
        className: 'input',
        inputMode: 'decimal',
        placeholder: '0.00',
        value: amount,
        onChange: (event) => setAmount(event.target.value),
        'data-testid': 'stake-amount',
      }}
      actions={
        <>
          <Button
            type="submit"
            variant="primary"
            disabled={staking.busy !== null}
            data-testid="stake-submit"
          >
            {staking.busy === 'stake' ? t('staking.form.staking') : t('staking.form.stake')}
          </Button>
          <Button
            type="button"
            variant="secondary"
            disabled={staking.busy !== null}
            onClick={() => void submit('unstake', amount)}
            data-testid="unstake-submit"
          >
            {staking.busy === 'unstake' ? t('staking.form.unstaking') : t('staking.form.unstake')}
          </Button>
        </>
      }
      notice={staking.notice && staking.notice.action !== 'auto' ? staking.notice : null}
      onSubmit={askToStake}
    >
      <ConfirmDialog
        open={confirming !== null}
        title={t('staking.confirm.title')}
        confirmLabel={t('staking.confirm.action', {
          amount: formatMicroSsl(confirming?.micro ?? '0', locale, { decimals: 'cents' }),
        })}
        busyLabel={t('staking.form.staking')}
        fallbackError={t('staking.error.generic')}
        onClose={() => setConfirming(null)}
        onConfirm={async () => {
          await submit('stake', amount);
        }}
        data-testid="stake-confirm-dialog"
      >
        <p data-testid="stake-confirm-text">
          {t('staking.confirm.body', {
            amount: formatMicroSsl(confirming?.micro ?? '0', locale, { decimals: 'cents' }),
            days: ECONOMICS.stakeLockDays,
            date: formatDate(confirming?.unlocksAt ?? 0, locale, { dateStyle: 'medium' }),
          })}
        </p>
        <Banner tone="warning">
          {t('staking.confirm.warning', { days: ECONOMICS.stakeLockDays })}
        </Banner>
      </ConfirmDialog>
    </StakingFieldForm>
  );
}
