import { useId, useState } from 'react';
import { Dialog } from '../../../components/ui/dialog';
import { useT } from '../../../lib/i18n/i18n';
import type { WalletType } from '../api/get-wallet';
import { AddressDeposit } from './address-deposit';
import { CryptoDepositForm } from './crypto-deposit-form';
import { PaymentInstructions } from './payment-instructions';
import { ADDRESS_POLL_MS, useAddressDeposit } from './use-address-deposit';
import { type DepositState, useDeposit } from './use-deposit';
import '../wallet.css';

export interface DepositDialogProps {
  open: boolean;
  onClose: () => void;
  /** The wallet credited: the client's or the node operator's (docs/product/screens.md#dashboards-and-information-pages, docs/product/states.md#subscription-and-reliability-states). */
  type: WalletType;
  ownerUuid: string;
}

/**
 * docs/product/screens.md#the-shell-and-the-market-screens deposit flow: choose a method, then the crypto form, then the payment instructions
 * with the QR and Verify. Card payments are unavailable (docs/product/input-rules.md#market-and-account-input): they show as a
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

  if (deposit.step === 'crypto')
    return <CryptoStep deposit={deposit} type={props.type} onClose={props.onClose} />;
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

/**
 * The crypto choice shows the account's own address when the server offers one;
 * the Solana Pay request (reference, exact amount) stays one click away for wallet apps, and
 * stands alone when the server's config says it derives no addresses, or the address cannot be
 * had (`deposits.addresses_off`, any failure).
 */
function CryptoStep(props: { deposit: DepositState; type: WalletType; onClose: () => void }) {
  const { t } = useT('wallet');
  const config = props.deposit.config;
  const offered = config.status === 'ready' && config.data?.depositAddresses === true;
  const address = useAddressDeposit(props.type, offered, ADDRESS_POLL_MS);
  const [walletApp, setWalletApp] = useState(false);

  const settled = config.status === 'ready' || config.status === 'error';
  if (settled && (walletApp || address.status === 'off' || address.status === 'error'))
    return <CryptoDepositForm deposit={props.deposit} />;
  if (address.status !== 'ready')
    return (
      <div className="wallet-panel__loading" role="status" data-testid="deposit-crypto">
        <span className="spinner" aria-hidden="true" />
        <span>{t('deposit.loading')}</span>
      </div>
    );
  return (
    <AddressDeposit
      state={address}
      onWalletApp={() => setWalletApp(true)}
      onBack={props.deposit.backToMethod}
      onDone={props.onClose}
    />
  );
}
