import { DEPOSIT_MESSAGES } from '@scn/proto';
import { useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { CARD_MIN_USD, cardPreviewSsl, groupThousands } from '../wallet-format';
import '../wallet.css';

/** spec 01 §5: the fiat form (USD min 0.035, step 0.01, preview floor(usd / 0.035) SSL), unavailable. */
export function CardDeposit({
  onBack,
  onUseSolana,
}: {
  onBack: () => void;
  onUseSolana: () => void;
}) {
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
        {DEPOSIT_MESSAGES.cardUnavailable}
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
