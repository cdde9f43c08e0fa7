import { Dialog } from '../../../components/ui/dialog';
import type { WalletType } from '../api/get-wallet';
import { CardDeposit } from './card-deposit';
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
 * spec 01 §2 deposit flow: choose a method (Cryptocurrency via SOL, or Credit/Debit Card), then
 * the crypto form, then the payment instructions with the QR and Verify. Card payments are
 * unavailable (spec 01 §5): the card view shows the preview and says so.
 */
export function DepositDialog({ open, onClose, type, ownerUuid }: DepositDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} title="Deposit SSL" data-testid="deposit-dialog">
      <DepositBody type={type} ownerUuid={ownerUuid} onClose={onClose} />
    </Dialog>
  );
}

function DepositBody(props: { type: WalletType; ownerUuid: string; onClose: () => void }) {
  const deposit = useDeposit(props);

  if (deposit.step === 'crypto') return <CryptoDepositForm deposit={deposit} />;
  if (deposit.step === 'instructions') return <PaymentInstructions deposit={deposit} />;
  if (deposit.step === 'card') {
    return <CardDeposit onBack={deposit.backToMethod} onUseSolana={deposit.chooseCrypto} />;
  }
  return (
    <div className="stack">
      <p className="muted">Choose how to add SSL to your balance.</p>
      <div className="choice-list">
        <button type="button" className="choice" onClick={deposit.chooseCrypto}>
          <span className="choice__icon" aria-hidden="true">
            ◎
          </span>
          <span className="choice__text">
            <span className="choice__title">Cryptocurrency</span>
            <span className="choice__description">Deposit with Solana (SOL)</span>
          </span>
        </button>
        <button type="button" className="choice" onClick={deposit.chooseCard}>
          <span className="choice__icon" aria-hidden="true">
            ▭
          </span>
          <span className="choice__text">
            <span className="choice__title">Credit/Debit Card</span>
            <span className="choice__description">Pay in US dollars</span>
          </span>
        </button>
      </div>
    </div>
  );
}
