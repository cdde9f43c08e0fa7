import { WITHDRAWAL_STATUS_TEXT, type Withdrawal } from '@scn/proto';
import type { Snapshot } from 'valtio';
import { formatDateTime, sslAmount } from '../wallet-format';
import { solText } from '../withdraw-rules';
import '../wallet.css';

/** The node wallet's withdrawals, newest first: status, amounts and the payout on the explorer. */
export function WithdrawalList({ withdrawals }: { withdrawals: Snapshot<Withdrawal[]> }) {
  if (withdrawals.length === 0) return null;
  return (
    <section className="wallet-withdrawals" aria-label="Withdrawals">
      <h3 className="wallet-withdrawals__title">Withdrawals</h3>
      <ul className="wallet-transactions" data-testid="withdrawals">
        {withdrawals.map((withdrawal) => (
          <li
            key={withdrawal.id}
            className="wallet-transaction"
            data-testid="withdrawal"
            data-status={withdrawal.status}
          >
            <div className="wallet-transaction__main">
              <span className="wallet-transaction__type">
                <span
                  className={`wallet-withdrawal__status wallet-withdrawal__status--${withdrawal.status}`}
                  data-testid="withdrawal-status"
                >
                  {WITHDRAWAL_STATUS_TEXT[withdrawal.status]}
                </span>{' '}
                {solText(withdrawal.lamports)} SOL to{' '}
                <code className="deposit__mono">{withdrawal.destinationAddress}</code>
              </span>
              <span className="small muted">
                {formatDateTime(withdrawal.createdAt)} · fee {sslAmount(withdrawal.feeMicro)} SSL ·
                1 SOL = {withdrawal.sslPerSol} SSL
              </span>
              {withdrawal.status === 'failed' && withdrawal.failureReason && (
                <span className="small" data-testid="withdrawal-failure">
                  {withdrawal.failureReason}; {sslAmount(withdrawal.amountMicro)} SSL returned to
                  your wallet.
                </span>
              )}
              {withdrawal.explorerUrl && (
                <a
                  className="wallet-transaction__link"
                  href={withdrawal.explorerUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  data-testid="withdrawal-explorer"
                >
                  View the payout on the explorer
                </a>
              )}
            </div>
            <span className="wallet-transaction__amount wallet-amount--negative">
              -{sslAmount(withdrawal.amountMicro)} SSL
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
