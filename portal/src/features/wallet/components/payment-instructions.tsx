import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { creditedText } from '../deposit-rules';
import { formatDateTime } from '../wallet-format';
import { DepositQr } from './deposit-qr';
import type { DepositState } from './use-deposit';
import '../wallet.css';

/**
 * spec 01 §4, §5: send the exact amount from the given address and wait for the blockchain's
 * confirmation, then Verify (the server's watcher may credit first: the dialog then closes by
 * itself). On localnet the demo wallet pays the request in one click.
 */
export function PaymentInstructions({ deposit }: { deposit: DepositState }) {
  const { request, error, notice, busy, config } = deposit;
  if (!request) return null;
  const demoWalletUrl = config.data?.demoWalletUrl ?? null;

  return (
    <div className="stack deposit-instructions" data-testid="deposit-instructions">
      <h3 className="deposit__title">Payment instructions</h3>
      <p className="small">
        Send <strong>exactly</strong> the amount below from <strong>your address</strong>, then wait
        for the blockchain confirmation and press Verify. A Solana Pay wallet (Phantom, Solflare,
        Backpack) can scan the code instead.
      </p>
      <div className="deposit-instructions__qr">
        <DepositQr key={request.transferUrl} url={request.transferUrl} />
      </div>
      <dl className="deposit-instructions__facts">
        <div>
          <dt>Amount</dt>
          <dd>
            <code data-testid="deposit-amount">{request.solAmount} SOL</code>
            <CopyButton text={request.solAmount} label="Copy amount" />
          </dd>
        </div>
        <div>
          <dt>Deposit address</dt>
          <dd>
            <code className="deposit__mono" data-testid="deposit-address">
              {request.depositAddress}
            </code>
            <CopyButton text={request.depositAddress} label="Copy address" />
          </dd>
        </div>
        <div>
          <dt>From</dt>
          <dd>
            <code className="deposit__mono">{request.userAddress}</code>
          </dd>
        </div>
        <div>
          <dt>You receive</dt>
          <dd data-testid="deposit-credit">{creditedText(request.sslCreditMicro)} SSL</dd>
        </div>
      </dl>
      <p className="small muted">
        This quote holds until {formatDateTime(request.expiresAt)}.{' '}
        <CopyButton text={request.transferUrl} label="Copy payment link" variant="ghost" />
      </p>
      {notice && (
        <Banner tone="info" data-testid="deposit-notice">
          {notice}
        </Banner>
      )}
      {error && (
        <Banner tone="error" data-testid="deposit-error">
          {error}
        </Banner>
      )}
      <div className="dialog__actions">
        <Button variant="secondary" onClick={deposit.backToEdit}>
          Back to Edit Details
        </Button>
        {demoWalletUrl && (
          <Button variant="secondary" disabled={busy !== null} onClick={deposit.payDemo}>
            {busy === 'demo' ? 'Paying...' : 'Pay with the demo wallet'}
          </Button>
        )}
        <Button variant="primary" disabled={busy !== null} onClick={deposit.verify}>
          {busy === 'verify' ? 'Verifying...' : 'Verify'}
        </Button>
      </div>
    </div>
  );
}
