import { DEPOSIT_MESSAGES, MIN_DEPOSIT_SOL } from '@scn/proto';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { canContinue, quotedSsl } from '../deposit-rules';
import { groupThousands } from '../wallet-format';
import type { DepositState } from './use-deposit';
import '../wallet.css';

/**
 * spec 01 §4, §5: the SOL amount (min 0.001, step 0.001) and the address the client sends from;
 * Continue is disabled until both are filled. The quote shown is the server's current rate.
 */
export function CryptoDepositForm({ deposit }: { deposit: DepositState }) {
  const { config, form, error, busy } = deposit;

  if (config.status === 'error') {
    return (
      <div className="stack" data-testid="deposit-crypto">
        <Banner tone="error" data-testid="deposit-init-failed">
          {DEPOSIT_MESSAGES.initFailed}
        </Banner>
        <div className="dialog__actions">
          <Button variant="secondary" onClick={deposit.backToMethod}>
            Back
          </Button>
          <Button variant="primary" onClick={deposit.retryConfig}>
            Try Again
          </Button>
        </div>
      </div>
    );
  }
  if (config.status !== 'ready' || !config.data) {
    return (
      <div className="wallet-panel__loading" role="status" data-testid="deposit-crypto">
        <span className="spinner" aria-hidden="true" />
        <span>Loading payment system...</span>
      </div>
    );
  }

  const rate = config.data.conversionRate;
  const preview = quotedSsl(form.solAmount, rate);
  return (
    <form
      className="stack"
      data-testid="deposit-crypto"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        deposit.submit();
      }}
    >
      <h3 className="deposit__title">Deposit with Solana (SOL)</h3>
      <p className="small muted">
        1 SOL = {groupThousands(String(rate))} SSL at the current rate
        {config.data.cluster === 'mainnet-beta' ? '' : ` (${config.data.cluster})`}.
      </p>
      <label htmlFor="deposit-sol">SOL amount</label>
      <input
        id="deposit-sol"
        className="input"
        type="number"
        inputMode="decimal"
        min={MIN_DEPOSIT_SOL}
        step="0.001"
        value={form.solAmount}
        onChange={(event) => deposit.setField('solAmount', event.target.value)}
        placeholder="0.1"
      />
      {preview !== null && (
        <p className="small" data-testid="deposit-quote">
          You will receive <strong>{groupThousands(preview.toString())} SSL</strong>
        </p>
      )}
      <label htmlFor="deposit-address">Your Solana address</label>
      <input
        id="deposit-address"
        className="input deposit__mono"
        type="text"
        autoComplete="off"
        spellCheck={false}
        value={form.userAddress}
        onChange={(event) => deposit.setField('userAddress', event.target.value)}
        placeholder="The address you will send SOL from"
      />
      {config.data.demoWalletUrl && (
        <div>
          <Button variant="ghost" size="sm" onClick={deposit.fillDemoAddress}>
            Use the demo wallet&apos;s address
          </Button>
        </div>
      )}
      {error && (
        <Banner tone="error" data-testid="deposit-error">
          {error}
        </Banner>
      )}
      <div className="dialog__actions">
        <Button variant="secondary" onClick={deposit.backToMethod}>
          Back
        </Button>
        <Button
          type="submit"
          variant="primary"
          disabled={!canContinue(form) || busy === 'continue'}
        >
          {busy === 'continue' ? 'Preparing...' : 'Continue to Payment Instructions'}
        </Button>
      </div>
    </form>
  );
}
