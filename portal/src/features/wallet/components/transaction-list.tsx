import type { WalletTransaction } from '@scn/proto';
import { useEffect } from 'react';
import type { Snapshot } from 'valtio';
import { Button } from '../../../components/ui/button';
import type { WalletType } from '../api/get-wallet';
import { explorerLink, transactionSignature } from '../deposit-rules';
import { loadMoreTransactions, loadSolanaConfig, useSolanaConfig, useWallet } from '../store';
import { formatDateTime, signedAmount, transactionLabel } from '../wallet-format';
import '../wallet.css';

export interface TransactionListProps {
  type: WalletType;
  ownerUuid: string;
}

/** spec 01 §3: the wallet's transactions, newest first, with the server's own pages. */
export function TransactionList({ type, ownerUuid }: TransactionListProps) {
  const wallet = useWallet(type);
  const transactions = wallet.data?.transactions ?? [];
  const explorer = useSolanaConfig().data?.explorerTxUrl ?? null;
  const hasSignatures = transactions.some((transaction) => transactionSignature(transaction));

  // Deposits link to the cluster's explorer: its address comes with the Solana config.
  useEffect(() => {
    if (hasSignatures) void loadSolanaConfig();
  }, [hasSignatures]);

  if (transactions.length === 0) {
    return (
      <p className="wallet-transactions__empty" data-testid="transactions-empty">
        No transactions yet
      </p>
    );
  }
  return (
    <div className="stack">
      <ul className="wallet-transactions" data-testid="transactions">
        {transactions.map((transaction) => (
          <TransactionRow key={transaction.id} transaction={transaction} explorer={explorer} />
        ))}
      </ul>
      {wallet.data?.hasMore && (
        <div>
          <Button
            variant="secondary"
            size="sm"
            disabled={wallet.loadingMore}
            onClick={() => void loadMoreTransactions(type, ownerUuid)}
          >
            {wallet.loadingMore ? 'Loading...' : 'Show older transactions'}
          </Button>
        </div>
      )}
    </div>
  );
}

function details(transaction: Snapshot<WalletTransaction>): string[] {
  const parts: string[] = [];
  if (transaction.serverCount !== null) {
    parts.push(`${transaction.serverCount} server${transaction.serverCount === 1 ? '' : 's'}`);
  }
  // The server's '1month' and '100hours' read as '1 month' and '100 hours'.
  if (transaction.duration) parts.push(transaction.duration.replace(/^(\d+)([a-z]+)$/i, '$1 $2'));
  if (transaction.description) parts.push(transaction.description);
  if (transaction.frozenUntil)
    parts.push(`frozen until ${formatDateTime(transaction.frozenUntil)}`);
  return parts;
}

function TransactionRow({
  transaction,
  explorer,
}: {
  transaction: Snapshot<WalletTransaction>;
  explorer: string | null;
}) {
  const amount = signedAmount(transaction.amountMicro);
  const extra = details(transaction);
  const signature = transactionSignature(transaction);
  const link = signature ? explorerLink(explorer, signature) : null;
  return (
    <li className="wallet-transaction" data-testid="transaction" data-type={transaction.type}>
      <div className="wallet-transaction__main">
        <span className="wallet-transaction__type" data-testid="transaction-type">
          {transactionLabel(transaction.type)}
        </span>
        <span className="small muted">{formatDateTime(transaction.timestamp)}</span>
        {extra.length > 0 && <span className="small muted">{extra.join(' · ')}</span>}
        {link && (
          <a
            className="wallet-transaction__link"
            href={link}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="transaction-explorer"
          >
            View transaction on the explorer
          </a>
        )}
      </div>
      <span
        className={`wallet-transaction__amount wallet-amount--${amount.tone}`}
        data-testid="transaction-amount"
      >
        {amount.text} SSL
      </span>
    </li>
  );
}
