import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n/i18n';
import { onRealtime } from '../../../lib/realtime';
import { type WalletType, refreshWallet, useWallet } from '../api/get-wallet';
import { useWithdrawals } from '../api/withdrawals';
import { DepositDialog } from './deposit-dialog';
import { DepositHistory } from './deposit-history';
import { TransactionList } from './transaction-list';
import { WalletOverview } from './wallet-overview';
import { WithdrawAction } from './withdraw-action';
import { WithdrawalList } from './withdrawal-list';
import '../wallet.css';

export interface WalletPanelProps {
  type: WalletType;
  ownerUuid: string;
  /** The heading; by default the wallet's own ("Your Wallet", "Node Wallet") in the reader's language. */
  title?: string;
  /** Open the deposit dialog at once (docs/product/screens.md#the-shell-and-the-market-screens: "Add SSL to Balance" asks for the deposit view). */
  depositOpenInitially?: boolean;
}

const TABS = ['overview', 'transactions'] as const;
type TabId = (typeof TABS)[number];

/**
 * docs/product/screens.md#the-shell-and-the-market-screens Wallet panel and docs/product/screens.md#dashboards-and-information-pages wallet sections: Overview and Transactions tabs, Deposit,
 * and Withdraw for node wallets only (Suspended unless the server has withdrawals on; their list
 * under the overview). Every amount
 * is the server's: nothing is corrected or added up here (deliberately unlike docs/product/input-rules.md#dashboard-input).
 */
export function WalletPanel({
  type,
  ownerUuid,
  title: givenTitle,
  depositOpenInitially,
}: WalletPanelProps) {
  const { t } = useT('wallet');
  const title = givenTitle ?? t(`panel.title.${type}`);
  const wallet = useWallet(type, ownerUuid);
  const withdrawals = useWithdrawals(ownerUuid, type === 'node');
  const [tab, setTab] = useState<TabId>('overview');
  const [depositOpen, setDepositOpen] = useState(depositOpenInitially ?? false);
  const closeDeposit = useCallback(() => setDepositOpen(false), []);
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const baseId = useId();
  const titleId = `${baseId}-title`;

  // A credited deposit (by Verify or the server's watcher) refreshes the wallet.
  useEffect(
    () => onRealtime('wallet-updated', () => void refreshWallet(type, ownerUuid)),
    [type, ownerUuid],
  );

  const onTabKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    event.preventDefault();
    // The tabs run with the text: ArrowRight goes on in English, back in Persian (right to left).
    const forward =
      getComputedStyle(event.currentTarget).direction === 'rtl' ? 'ArrowLeft' : 'ArrowRight';
    const index = TABS.indexOf(tab);
    const next = (index + (event.key === forward ? 1 : TABS.length - 1)) % TABS.length;
    setTab(TABS[next] ?? 'overview');
    tabRefs.current[next]?.focus();
  };

  const ready = wallet.status === 'ready';

  return (
    <section className="card wallet-panel" aria-labelledby={titleId} data-testid={`${type}-wallet`}>
      <header className="wallet-panel__header">
        <h2 id={titleId}>{title}</h2>
        <div className="wallet-panel__actions">
          <Button variant="primary" size="sm" onClick={() => setDepositOpen(true)}>
            {t('panel.deposit')}
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
        aria-label={t('panel.tabsLabel', { title })}
        onKeyDown={onTabKeyDown}
      >
        {TABS.map((candidate, index) => (
          <button
            key={candidate}
            ref={(element) => {
              tabRefs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${candidate}`}
            className="tab"
            aria-selected={tab === candidate}
            aria-controls={`${baseId}-panel`}
            tabIndex={tab === candidate ? 0 : -1}
            onClick={() => setTab(candidate)}
          >
            {t(`panel.tab.${candidate}`)}
          </button>
        ))}
      </div>

      <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-tab-${tab}`}>
        {wallet.status === 'error' ? (
          <div className="stack">
            <Banner tone="error" data-testid="wallet-error">
              {t(`load.${wallet.error ?? 'fetchFailed'}`)}
            </Banner>
            <div>
              <Button variant="secondary" onClick={wallet.reload}>
                {t('panel.tryAgain')}
              </Button>
            </div>
          </div>
        ) : !ready ? (
          <div className="wallet-panel__loading" role="status" aria-live="polite">
            <span className="spinner" aria-hidden="true" />
            <span>{t('panel.loading')}</span>
          </div>
        ) : !wallet.data ? (
          <p className="wallet-panel__empty">{t('panel.empty')}</p>
        ) : tab === 'overview' ? (
          <>
            <WalletOverview type={type} data={wallet.data} />
            {type === 'node' && <WithdrawalList withdrawals={withdrawals?.withdrawals ?? []} />}
          </>
        ) : (
          <>
            <DepositHistory type={type} />
            <TransactionList type={type} ownerUuid={ownerUuid} />
          </>
        )}
      </div>

      <DepositDialog open={depositOpen} onClose={closeDeposit} type={type} ownerUuid={ownerUuid} />
    </section>
  );
}
