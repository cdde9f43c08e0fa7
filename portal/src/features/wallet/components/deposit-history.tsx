import type { DepositPendingView, DepositTransferView } from '@scn/proto';
import { formatMicroSsl } from '../../../lib/money';
import { useT } from '../../../lib/i18n/i18n';
import { pendingFor, rateText, statusBadge, transferAmount } from '../address-deposit-rules';
import type { WalletType } from '../api/get-wallet';
import { explorerLink } from '../deposit-rules';
import { useSolanaConfig } from '../api/solana';
import { formatDateTime, solDecimal } from '../wallet-format';
import { useAddressDeposit } from './use-address-deposit';
import { ExplorerLink } from './explorer-link';
import '../wallet.css';

/**
 * The transfers to the account's own address, newest first: date, currency and
 * amount, rate, SSL credited, status (below the minimum: how much of it has arrived; refused:
 * why) and the explorer page. Nothing shows on a server without per-account addresses. It
 * follows 'wallet-updated' only (no timer): the open deposit view polls.
 */
export function DepositHistory({ type }: { type: WalletType }) {
  const { t } = useT('wallet');
  // The config is read by the deposit dialog, or by the transactions when a deposit is there:
  // on a server without deposits, the list asks nothing.
  const config = useSolanaConfig();
  const { status, transfers } = useAddressDeposit(
    type,
    config.data?.depositAddresses === true,
    null,
  );

  if (status !== 'ready' || !transfers || transfers.transfers.length === 0) return null;
  const explorer = config.data?.explorerTxUrl ?? null;
  return (
    <section className="stack deposit-history" aria-labelledby={`deposit-history-${type}`}>
      <h3 id={`deposit-history-${type}`} className="deposit-history__title">
        {t('deposit.history.title')}
      </h3>
      <ul className="wallet-transactions" data-testid="deposit-history">
        {transfers.transfers.map((transfer) => (
          <TransferRow
            key={transfer.id}
            transfer={transfer}
            pending={pendingFor(transfers.pending, transfer.currency)}
            explorer={explorer}
          />
        ))}
      </ul>
    </section>
  );
}

function TransferRow({
  transfer,
  pending,
  explorer,
}: {
  transfer: DepositTransferView;
  pending: DepositPendingView | null;
  explorer: string | null;
}) {
  const { t, locale } = useT('wallet');
  const badge = statusBadge(transfer.status);
  const link = explorerLink(explorer, transfer.signature);
  const badgeClass = badge.tone === 'neutral' ? 'badge' : `badge badge--${badge.tone}`;
  return (
    <li className="wallet-transaction" data-testid="deposit-transfer" data-status={transfer.status}>
      <div className="wallet-transaction__main">
        <span className="wallet-transaction__type">
          <bdi dir="ltr" data-testid="deposit-transfer-amount">
            {transferAmount(transfer, locale)}
          </bdi>{' '}
          <span className={badgeClass} data-testid="deposit-transfer-status">
            {t(`deposit.history.status.${badge.key}`)}
          </span>
        </span>
        <span className="small muted">{formatDateTime(transfer.seenAt, locale)}</span>
        {transfer.currency && transfer.sslPerUnitMicro && (
          <span className="small muted">
            <bdi dir="ltr">{rateText(transfer.currency, transfer.sslPerUnitMicro, locale)}</bdi>
          </span>
        )}
        {transfer.status === 'pending_minimum' && pending && (
          <span className="small" data-testid="deposit-transfer-pending">
            {t('deposit.history.belowMinimum', {
              received: `${solDecimal(pending.amount, locale)} ${pending.currency}`,
              minimum: `${solDecimal(pending.minimum, locale)} ${pending.currency}`,
            })}
          </span>
        )}
        {transfer.status === 'refused' && (
          <span className="small" data-testid="deposit-transfer-refused">
            {t(`deposit.history.refused.${transfer.refusedReason ?? 'unknown_mint'}`)}
          </span>
        )}
        {link && <ExplorerLink href={link} testId="deposit-transfer-explorer" />}
      </div>
      {transfer.creditMicro !== null && transfer.status === 'credited' && (
        <span
          className="wallet-transaction__amount wallet-amount--positive"
          data-testid="deposit-transfer-credit"
        >
          +{formatMicroSsl(transfer.creditMicro, locale, { unit: false })} SSL
        </span>
      )}
    </li>
  );
}
