import { SSL_USD_PRICE_TEXT } from '@scn/proto';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import type { WalletType } from '../api/get-wallet';
import { type WalletView, loadWallet, useWallet } from '../store';
import { formatDateTime, sslAmount, usdAmount } from '../wallet-format';
import { DepositDialog } from './deposit-dialog';
import { TransactionList } from './transaction-list';
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
 * and Withdraw for node wallets only (always disabled: withdrawals are suspended). Every amount
 * is the server's: nothing is corrected or added up here (deliberately unlike spec 02 §5).
 */
export function WalletPanel({ type, ownerUuid, title, depositOpenInitially }: WalletPanelProps) {
  const wallet = useWallet(type);
  const [tab, setTab] = useState<TabId>('overview');
  const [depositOpen, setDepositOpen] = useState(depositOpenInitially ?? false);
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const baseId = useId();
  const titleId = `${baseId}-title`;

  useEffect(() => {
    void loadWallet(type, ownerUuid);
  }, [type, ownerUuid]);

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
            // A disabled button gets no pointer events: the wrapper carries the hover text.
            <span
              className="wallet-panel__withdraw"
              title="Suspended"
              data-tooltip="Suspended"
              data-testid="withdraw-suspended"
            >
              <Button variant="secondary" size="sm" disabled aria-describedby={`${baseId}-wd`}>
                Withdraw
              </Button>
              <span id={`${baseId}-wd`} className="sr-only">
                Suspended
              </span>
            </span>
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
          <WalletOverview type={type} data={wallet.data} />
        ) : (
          <TransactionList type={type} ownerUuid={ownerUuid} />
        )}
      </div>

      <DepositDialog open={depositOpen} onClose={() => setDepositOpen(false)} />
    </section>
  );
}

function WalletOverview({ type, data }: { type: WalletType; data: WalletView }) {
  return (
    <div className="wallet-overview" data-testid="wallet-overview">
      <div className="wallet-overview__balance">
        <p className="wallet-overview__label">Balance</p>
        <p className="wallet-overview__amount">
          <span data-testid="wallet-balance">{sslAmount(data.balanceMicro)}</span>{' '}
          <span className="wallet-overview__unit">SSL</span>
        </p>
        <p className="wallet-overview__usd" data-testid="wallet-usd">
          ≈ {usdAmount(data.balanceMicro)} USD
          <span className="muted small"> (1 SSL = {SSL_USD_PRICE_TEXT})</span>
        </p>
      </div>

      {type === 'node' && (
        <dl className="wallet-overview__figures">
          <div>
            <dt>Frozen</dt>
            <dd data-testid="wallet-frozen">{sslAmount(data.frozenAmountMicro)} SSL</dd>
          </div>
          <div>
            <dt>Available to withdraw</dt>
            <dd data-testid="wallet-available">{sslAmount(data.availableMicro)} SSL</dd>
          </div>
        </dl>
      )}

      {type === 'node' && data.frozenAmounts.length > 0 && (
        <div className="wallet-overview__frozen">
          <p className="small muted">Operator rewards are frozen for 60 days after each sale:</p>
          <ul data-testid="wallet-frozen-list">
            {data.frozenAmounts.map((lot, index) => (
              <li key={`${lot.frozenUntil}-${index}`}>
                <strong>{sslAmount(lot.amountMicro)} SSL</strong>{' '}
                <span className="muted">until {formatDateTime(lot.frozenUntil)}</span>
              </li>
            ))}
          </ul>
        </div>
      )}

      {/* spec 01 §6: the wallet address overview is hidden for the node wallet. */}
      {type === 'client' && data.walletAddress && (
        <p className="wallet-overview__address small">
          Wallet address: <code data-testid="wallet-address">{data.walletAddress}</code>
        </p>
      )}

      <p className="small muted">Updated {formatDateTime(data.lastUpdated)}</p>
    </div>
  );
}
