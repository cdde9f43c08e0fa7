import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { onRealtime } from '../../../lib/realtime';
import type { WalletType } from '../api/get-wallet';
import { loadWallet, useWallet } from '../store';
import { useWithdrawals } from '../withdrawals-store';
import { DepositDialog } from './deposit-dialog';
import { TransactionList } from './transaction-list';
import { WalletOverview } from './wallet-overview';
import { WithdrawAction } from './withdraw-action';
import { WithdrawalList } from './withdrawal-list';
import '../wallet.css';

export interface WalletPanelProps {
  type: WalletType;
  ownerUuid: string;
  title: string;
  /** Open the deposit dialog at once (spec 01 §2: "Add SSL to Balance" asks for the deposit view). */
  depositOpenInitially?: boolean;
}

const TABS = [
  { id: 'overview', label: 'Overview' },
  { id: 'transactions', label: 'Transactions' },
] as const;
type TabId = (typeof TABS)[number]['id'];

/**
 * spec 01 §2 Wallet panel and spec 02 §2 wallet sections: Overview and Transactions tabs, Deposit,
 * and Withdraw for node wallets only (Suspended unless the server has withdrawals on; their list
 * under the overview). Every amount
 * is the server's: nothing is corrected or added up here (deliberately unlike spec 02 §5).
 */
export function WalletPanel({ type, ownerUuid, title, depositOpenInitially }: WalletPanelProps) {
  const wallet = useWallet(type);
  const withdrawals = useWithdrawals();
  const [tab, setTab] = useState<TabId>('overview');
  const [depositOpen, setDepositOpen] = useState(depositOpenInitially ?? false);
  const closeDeposit = useCallback(() => setDepositOpen(false), []);
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const baseId = useId();
  const titleId = `${baseId}-title`;

  useEffect(() => {
    void loadWallet(type, ownerUuid);
  }, [type, ownerUuid]);

  // issue 17: a credited deposit (by Verify or the server's watcher) refreshes the wallet.
  useEffect(
    () => onRealtime('wallet-updated', () => void loadWallet(type, ownerUuid)),
    [type, ownerUuid],
  );

  const onTabKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    event.preventDefault();
    const index = TABS.findIndex((candidate) => candidate.id === tab);
    const next = (index + (event.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length;
    setTab(TABS[next]?.id ?? 'overview');
    tabRefs.current[next]?.focus();
  };

  const ready = wallet.status === 'ready' && wallet.ownerUuid === ownerUuid;

  return (
    <section className="card wallet-panel" aria-labelledby={titleId} data-testid={`${type}-wallet`}>
      <header className="wallet-panel__header">
        <h2 id={titleId}>{title}</h2>
        <div className="wallet-panel__actions">
          <Button variant="primary" size="sm" onClick={() => setDepositOpen(true)}>
            Deposit
          </Button>
          {type === 'node' && (
            <WithdrawAction
              ownerUuid={ownerUuid}
              availableMicro={ready && wallet.data ? wallet.data.availableMicro : null}
            />
          )}
        </div>
      </header>

      <div
        className="tabs wallet-panel__tabs"
        role="tablist"
        aria-label={`${title} views`}
        onKeyDown={onTabKeyDown}
      >
        {TABS.map((candidate, index) => (
          <button
            key={candidate.id}
            ref={(element) => {
              tabRefs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${candidate.id}`}
            className="tab"
            aria-selected={tab === candidate.id}
            aria-controls={`${baseId}-panel`}
            tabIndex={tab === candidate.id ? 0 : -1}
            onClick={() => setTab(candidate.id)}
          >
            {candidate.label}
          </button>
        ))}
      </div>

      <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-tab-${tab}`}>
        {wallet.status === 'error' ? (
          <div className="stack">
            <Banner tone="error" data-testid="wallet-error">
              {wallet.error}
            </Banner>
            <div>
              <Button variant="secondary" onClick={() => void loadWallet(type, ownerUuid)}>
                Try Again
              </Button>
            </div>
          </div>
        ) : !ready ? (
          <div className="wallet-panel__loading" role="status" aria-live="polite">
            <span className="spinner" aria-hidden="true" />
            <span>Loading your wallet...</span>
          </div>
        ) : !wallet.data ? (
          <p className="wallet-panel__empty">No wallet data available</p>
        ) : tab === 'overview' ? (
          <>
            <WalletOverview type={type} data={wallet.data} />
            {type === 'node' && (
              <WithdrawalList withdrawals={withdrawals.data?.withdrawals ?? []} />
            )}
          </>
        ) : (
          <TransactionList type={type} ownerUuid={ownerUuid} />
        )}
      </div>

      <DepositDialog open={depositOpen} onClose={closeDeposit} type={type} ownerUuid={ownerUuid} />
    </section>
  );
}
