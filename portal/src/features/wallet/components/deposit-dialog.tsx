import { DEFAULT_SSL_PER_SOL, WALLET_MESSAGES } from '@scn/proto';
import { useEffect, useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { loadWalletSettings, useWalletSettings, walletStore } from '../store';
import { CARD_MIN_USD, cardPreviewSsl, groupThousands } from '../wallet-format';
import '../wallet.css';

/** spec 01 §5. */
export const CARD_UNAVAILABLE =
  'Credit card payments are currently unavailable. Please use Solana deposits instead.';
export const SOL_DEPOSITS_UNAVAILABLE =
  'SOL deposits are not available yet. Your wallet is ready: deposits open here as soon as the network accepts them.';

type Step = 'method' | 'crypto' | 'card';

export interface DepositDialogProps {
  open: boolean;
  onClose: () => void;
}

/**
 * spec 01 §2 deposit flow: choose a method (Cryptocurrency via SOL, or Credit/Debit Card). Card
 * payments are unavailable (spec 01 §5); SOL deposits open when /wallet/settings says so, which a
 * later release builds. Until then the dialog says so plainly instead of showing a form.
 */
export function DepositDialog({ open, onClose }: DepositDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} title="Deposit SSL" data-testid="deposit-dialog">
      <DepositBody onClose={onClose} />
    </Dialog>
  );
}

function DepositBody({ onClose }: { onClose: () => void }) {
  const [step, setStep] = useState<Step>('method');

  if (step === 'crypto') return <CryptoStep onBack={() => setStep('method')} onClose={onClose} />;
  if (step === 'card') {
    return <CardStep onBack={() => setStep('method')} onUseSolana={() => setStep('crypto')} />;
  }
  return (
    <div className="stack">
      <p className="muted">Choose how to add SSL to your balance.</p>
      <div className="choice-list">
        <button type="button" className="choice" onClick={() => setStep('crypto')}>
          <span className="choice__icon" aria-hidden="true">
            ◎
          </span>
          <span className="choice__text">
            <span className="choice__title">Cryptocurrency</span>
            <span className="choice__description">Deposit with Solana (SOL)</span>
          </span>
        </button>
        <button type="button" className="choice" onClick={() => setStep('card')}>
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

function CryptoStep({ onBack, onClose }: { onBack: () => void; onClose: () => void }) {
  const settings = useWalletSettings();

  useEffect(() => {
    void loadWalletSettings();
  }, []);

  return (
    <div className="stack" data-testid="deposit-crypto">
      <h3 className="deposit__title">Deposit with Solana (SOL)</h3>
      {settings.status === 'error' ? (
        <>
          <Banner tone="error">{WALLET_MESSAGES.settingsFailed}</Banner>
          <div>
            <Button
              variant="secondary"
              onClick={() => {
                walletStore.settings.status = 'idle';
                void loadWalletSettings();
              }}
            >
              Try Again
            </Button>
          </div>
        </>
      ) : settings.status !== 'ready' || !settings.data ? (
        <div className="wallet-panel__loading" role="status">
          <span className="spinner" aria-hidden="true" />
          <span>Loading deposit settings...</span>
        </div>
      ) : settings.data.depositsEnabled ? (
        <Banner tone="info">
          SOL deposits are open on the network; this version of the portal cannot take them yet.
          Please reload the page.
        </Banner>
      ) : (
        <Banner tone="info" data-testid="sol-unavailable">
          {SOL_DEPOSITS_UNAVAILABLE}
        </Banner>
      )}
      <p className="small muted">
        When deposits open, SSL is credited at the network&apos;s live rate (about{' '}
        {groupThousands(String(DEFAULT_SSL_PER_SOL))} SSL per SOL) once the transfer is confirmed on
        the blockchain.
      </p>
      <div className="dialog__actions">
        <Button variant="secondary" onClick={onBack}>
          Back
        </Button>
        <Button variant="primary" onClick={onClose}>
          Close
        </Button>
      </div>
    </div>
  );
}

function CardStep({ onBack, onUseSolana }: { onBack: () => void; onUseSolana: () => void }) {
  const [usd, setUsd] = useState('');
  const preview = cardPreviewSsl(usd);
  return (
    <div className="stack" data-testid="deposit-card">
      <h3 className="deposit__title">Pay by card</h3>
      <label htmlFor="deposit-usd">Amount (USD)</label>
      <input
        id="deposit-usd"
        className="input"
        type="number"
        inputMode="decimal"
        min={CARD_MIN_USD}
        step="0.01"
        value={usd}
        onChange={(event) => setUsd(event.target.value)}
        placeholder="10.00"
      />
      {preview !== null && (
        <p className="small" data-testid="card-preview">
          You would receive <strong>{groupThousands(preview.toString())} SSL</strong>
        </p>
      )}
      <Banner tone="error" data-testid="card-unavailable">
        {CARD_UNAVAILABLE}
      </Banner>
      <div className="dialog__actions">
        <Button variant="secondary" onClick={onBack}>
          Back
        </Button>
        <Button variant="primary" onClick={onUseSolana}>
          Use Solana instead
        </Button>
      </div>
    </div>
  );
}
