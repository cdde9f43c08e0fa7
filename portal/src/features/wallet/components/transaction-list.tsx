import type { WalletTransaction } from '@scn/proto';
import { Fragment, type ReactNode } from 'react';
import { Trans } from 'react-i18next';
import type { Snapshot } from 'valtio';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n/i18n';
import type { Locale } from '../../../lib/i18n/locale';
import { type WalletType, useOlderTransactions, useWallet } from '../api/get-wallet';
import { useSolanaConfig } from '../api/solana';
import { explorerLink, transactionSignature } from '../deposit-rules';
import { transactionDescription } from '../transaction-description';
import { formatDateTime, parseDuration, signedAmount, transactionLabelKey } from '../wallet-format';
import { ExplorerLink } from './explorer-link';
import '../wallet.css';

export interface TransactionListProps {
  type: WalletType;
  ownerUuid: string;
}

/** docs/product/records.md#market-and-wallet-records: the wallet's transactions, newest first, with the server's own pages. */
export function TransactionList({ type, ownerUuid }: TransactionListProps) {
  const { t } = useT('wallet');
  const wallet = useWallet(type, ownerUuid, false);
  const older = useOlderTransactions(type, ownerUuid);
  const transactions = wallet.data?.transactions ?? [];
  const hasSignatures = transactions.some((transaction) => transactionSignature(transaction));
  // Deposits link to the cluster's explorer: its address comes with the Solana config.
  const explorer = useSolanaConfig(hasSignatures).data?.explorerTxUrl ?? null;
  const last = transactions.at(-1);

  if (transactions.length === 0) {
    return (
      <p className="wallet-transactions__empty" data-testid="transactions-empty">
        {t('transactions.empty')}
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
            disabled={older.isPending}
            onClick={() => {
              if (last && !older.isPending) older.mutate(last.id);
            }}
          >
            {older.isPending ? t('transactions.loading') : t('transactions.older')}
          </Button>
        </div>
      )}
    </div>
  );
}

type WalletT = ReturnType<typeof useT<'wallet'>>['t'];

function details(
  transaction: Snapshot<WalletTransaction>,
  t: WalletT,
  locale: Locale,
): ReactNode[] {
  const parts: ReactNode[] = [];
  if (transaction.serverCount !== null) {
    parts.push(t('transactions.servers', { count: transaction.serverCount }));
  }
  // The server's '1month' and '100hours' read as '1 month' and '100 hours'; anything else raw.
  if (transaction.duration) {
    const duration = parseDuration(transaction.duration);
    parts.push(
      duration
        ? t(`transactions.duration.${duration.unit}`, { count: duration.count })
        : transaction.duration,
    );
  }
  // What it is, from its code in the reader's language; a row from before the
  // codes (or with a code this build does not know) shows the server's English words as given.
  const description = transactionDescription(transaction, locale);
  if (description) {
    parts.push(
      <span data-testid="transaction-description" data-code={description.code}>
        <Trans
          t={t}
          i18nKey={`transactionDescriptions.${description.code}`}
          values={description.values}
          components={{ bdi: <bdi /> }}
        />
      </span>,
    );
  } else if (transaction.description) {
    parts.push(<span data-testid="transaction-description">{transaction.description}</span>);
  }
  if (transaction.frozenUntil) {
    parts.push(
      t('transactions.frozenUntil', { date: formatDateTime(transaction.frozenUntil, locale) }),
    );
  }
  return parts;
}

function TransactionRow({
  transaction,
  explorer,
}: {
  transaction: Snapshot<WalletTransaction>;
  explorer: string | null;
}) {
  const { t, locale } = useT('wallet');
  const amount = signedAmount(transaction.amountMicro, locale);
  const extra = details(transaction, t, locale);
  const label = transactionLabelKey(transaction.type);
  const signature = transactionSignature(transaction);
  const link = signature ? explorerLink(explorer, signature) : null;
  return (
    <li className="wallet-transaction" data-testid="transaction" data-type={transaction.type}>
      <div className="wallet-transaction__main">
        <span className="wallet-transaction__type" data-testid="transaction-type">
          {label ? t(`transactions.type.${label}`) : transaction.type}
        </span>
        <span className="small muted">{formatDateTime(transaction.timestamp, locale)}</span>
        {extra.length > 0 && (
          <span className="small muted">
            {extra.map((part, i) => (
              <Fragment key={i}>
                {i > 0 && ' · '}
                {part}
              </Fragment>
            ))}
          </span>
        )}
        {link && <ExplorerLink href={link} testId="transaction-explorer" />}
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
