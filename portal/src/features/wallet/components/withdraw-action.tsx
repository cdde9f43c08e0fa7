import { useEffect, useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n/i18n';
import { onRealtime } from '../../../lib/realtime';
import { refreshWithdrawals, useWithdrawals } from '../api/withdrawals';
import { WithdrawDialog } from './withdraw-dialog';
import '../wallet.css';

/**
 * The node wallet's Withdraw button: it opens the Withdraw modal while the server has
 * withdrawals on (WITHDRAWALS_ENABLED); otherwise it is disabled and says 'Suspended' on hover
 * (docs/product/input-rules.md#market-and-account-input), as it does until the wallet and the settings are loaded.
 */
export function WithdrawAction({
  ownerUuid,
  availableMicro,
}: {
  ownerUuid: string;
  /** null until the wallet is loaded. */
  availableMicro: string | null;
}) {
  const { t } = useT('wallet');
  const data = useWithdrawals(ownerUuid);
  const [open, setOpen] = useState(false);
  const hintId = useId();

  // A payout confirmed or given back refreshes the list as it does the wallet.
  useEffect(
    () => onRealtime('wallet-updated', () => void refreshWithdrawals(ownerUuid)),
    [ownerUuid],
  );

  if (!data?.settings.enabled || availableMicro === null) {
    return (
      // A disabled button gets no pointer events: the wrapper carries the hover text.
      <span
        className="wallet-panel__withdraw"
        title={t('withdraw.suspended')}
        data-tooltip={t('withdraw.suspended')}
        data-testid="withdraw-suspended"
      >
        <Button variant="secondary" size="sm" disabled aria-describedby={hintId}>
          {t('withdraw.button')}
        </Button>
        <span id={hintId} className="sr-only">
          {t('withdraw.suspended')}
        </span>
      </span>
    );
  }
  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)} data-testid="withdraw">
        {t('withdraw.button')}
      </Button>
      <WithdrawDialog
        open={open}
        onClose={() => setOpen(false)}
        ownerUuid={ownerUuid}
        availableMicro={availableMicro}
        withdrawals={data}
      />
    </>
  );
}
