import { useId } from 'react';
import { Dialog } from '../../../components/ui/dialog';
import { useT } from '../../../lib/i18n/i18n';
import type { WalletType } from '../api/get-wallet';
import { CryptoDepositForm } from './crypto-deposit-form';
import { PaymentInstructions } from './payment-instructions';
import { useDeposit } from './use-deposit';
import '../wallet.css';

export interface DepositDialogProps {
  open: boolean;
  onClose: () => void;
  /** The wallet credited: the client's or the node operator's (spec 02 §2, §4). */
  type: WalletType;
  ownerUuid: string;
}

/**
 * spec 01 §2 deposit flow: choose a method, then the crypto form, then the payment instructions
 * with the QR and Verify. Card payments are unavailable (spec 01 §5): issue 27 §2 shows them as a
 * disabled choice marked "Coming later", never one that opens a form and dead-ends.
 */
export function DepositDialog({ open, onClose, type, ownerUuid }: DepositDialogProps) {
  const { t } = useT('wallet');
  return (
    <Dialog open={open} onClose={onClose} title={t('deposit.title')} data-testid="deposit-dialog">
      <DepositBody type={type} ownerUuid={ownerUuid} onClose={onClose} />
    </Dialog>
  );
}

function DepositBody(props: { type: WalletType; ownerUuid: string; onClose: () => void }) {
  const { t } = useT('wallet');
  const deposit = useDeposit(props);
  const cardNoteId = useId();

  if (deposit.step === 'crypto') return <CryptoDepositForm deposit={deposit} />;
  if (deposit.step === 'instructions') return <PaymentInstructions deposit={deposit} />;
  return (
    <div className="stack">
      <p className="muted">{t('deposit.choose')}</p>
      <div className="choice-list">
        <button type="button" className="choice" onClick={deposit.chooseCrypto}>
          <span className="choice__icon" aria-hidden="true">
            ◎
          </span>
          <span className="choice__text">
            <span className="choice__title">{t('deposit.crypto.title')}</span>
            <span className="choice__description">{t('deposit.crypto.description')}</span>
          </span>
        </button>
        <button
          type="button"
          className="choice choice--later"
          disabled
          data-testid="deposit-card-choice"
        >
          <span className="choice__icon" aria-hidden="true">
            ▭
          </span>
          <span className="choice__text">
            <span className="choice__title">
              {t('deposit.card.title')}{' '}
              <span className="badge badge--warning" data-testid="deposit-card-later">
                {t('deposit.card.comingLater')}
              </span>
            </span>
            <span className="choice__description" id={cardNoteId}>
              {t('deposit.card.note')}
            </span>
          </span>
        </button>
      </div>
    </div>
  );
}
