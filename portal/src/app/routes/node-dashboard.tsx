import { useEffect, useRef, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { buttonClass } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { EarningsPanel } from '../../features/earnings/components/earnings-panel';
import { PromoteDialog } from '../../features/promotions/components/promote-dialog';
import { NodeDashboard } from '../../features/nodes/components/node-dashboard';
import { useListedServers } from '../../features/nodes/api/get-servers';
import { RequireAccount } from '../../features/session/components/require-account';
import { useSession } from '../../features/session/store';
import { EarnSslPanel } from '../../features/social/components/earn-ssl-panel';
import { StakingPanel } from '../../features/staking/components/staking-panel';
import { VantagePointsPanel } from '../../features/vantage-points/components/vantage-points-panel';
import { WalletPanel } from '../../features/wallet/components/wallet-panel';
import { refreshWallet } from '../../features/wallet/api/get-wallet';
import { useT } from '../../lib/i18n/i18n';
import { onRealtime } from '../../lib/realtime';

/** /node-dashboard (docs/product/screens.md#dashboards-and-information-pages): only for an authenticated node operator. */
export function NodeDashboardRoute() {
  return (
    <RequireAccount userType="node">
      <NodeDashboardPage />
    </RequireAccount>
  );
}

/**
 * docs/product/screens.md#dashboards-and-information-pages: the node dashboard may be opened with navigation state asking to scroll to the
 * wallet section (`scrollToWallet`), and docs/product/screens.md#the-shell-and-the-market-screens "Add SSL to Balance" asks for the deposit
 * view (`openDeposit`).
 */
function readWalletRequest(state: unknown): { scroll: boolean; deposit: boolean } {
  if (!state || typeof state !== 'object') return { scroll: false, deposit: false };
  const record = state as Record<string, unknown>;
  const deposit = record.openDeposit === true;
  return { scroll: deposit || record.scrollToWallet === true, deposit };
}

/** When the operator's first listed server was added: the earliest month of its statements. */
function useFirstServerAt(ownerUuid: string | null): string | null {
  const servers = useListedServers(ownerUuid);
  let first: string | null = null;
  for (const { created } of servers) {
    if (first === null || Date.parse(created) < Date.parse(first)) first = created;
  }
  return first;
}

function NodeDashboardPage() {
  // Every catalogue the page and its panels read, fetched together (not one after another).
  useTranslation(['node', 'wallet', 'earn', 'vantage']);
  const { t } = useT('node');
  const { user } = useSession();
  const uuid = user?.uuid ?? null;
  const firstServerAt = useFirstServerAt(uuid);
  const [walletRequest] = useState(() => readWalletRequest(window.history.state));
  const walletRef = useRef<HTMLDivElement>(null);
  const [promoting, setPromoting] = useState<{ id: string; name: string } | null>(null);
  // 'Add SSL to Balance' here opens the wallet's deposit view: a fresh panel that opens it.
  const [deposit, setDeposit] = useState({ open: walletRequest.deposit, key: 0 });

  useEffect(() => {
    if (!walletRequest.scroll) return;
    walletRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    const state = { ...(window.history.state as Record<string, unknown>) };
    delete state.scrollToWallet;
    delete state.openDeposit;
    window.history.replaceState(state, '');
  }, [walletRequest]);

  // A sale credits the operator (frozen): the events that refresh the servers refresh the wallet.
  useEffect(() => {
    if (!uuid) return;
    return onRealtime('server-list-updated', () => void refreshWallet('node', uuid));
  }, [uuid]);

  if (!user) return null;
  return (
    <div className="container page dashboard">
      <header className="page-header page-header--split">
        <div>
          <p className="eyebrow">{t('page.eyebrow')}</p>
          <h1>{t('page.title')}</h1>
          <p className="page-header__lead">
            <Trans
              ns="node"
              i18nKey="page.welcome"
              values={{ email: user.email }}
              components={{ strong: <strong dir="ltr" data-testid="dashboard-email" /> }}
            />
          </p>
        </div>
        <div className="page-header__actions">
          <Link
            href={`${paths.economics}#node-operators`}
            className={buttonClass({ variant: 'secondary' })}
          >
            {t('page.operatorRewards')}
          </Link>
          <Link href={paths.servers} className={buttonClass({ variant: 'ghost' })}>
            {t('page.serverMarket')}
          </Link>
        </div>
      </header>
      <NodeDashboard
        ownerUuid={user.uuid}
        wallet={
          <div ref={walletRef} className="node-dashboard__wallet">
            <WalletPanel
              key={deposit.key}
              type="node"
              ownerUuid={user.uuid}
              title={t('page.wallet')}
              depositOpenInitially={deposit.open}
            />
            {/* A stake or unstake moves money in and out of the node wallet. */}
            <StakingPanel
              ownerUuid={user.uuid}
              onMoved={() => void refreshWallet('node', user.uuid)}
            />
            {/* docs/product/screens.md#dashboards-and-information-pages: the Earn SSL share dialog. */}
            <EarnSslPanel userUuid={user.uuid} />
          </div>
        }
        earnings={<EarningsPanel ownerUuid={user.uuid} firstServerAt={firstServerAt} />}
        vantagePoints={<VantagePointsPanel ownerUuid={user.uuid} />}
        onPromote={(server) => setPromoting({ id: server.id, name: server.name })}
      />
      <PromoteDialog
        server={promoting}
        onClose={() => setPromoting(null)}
        onPromoted={() => void refreshWallet('node', user.uuid)}
        onAddBalance={() => {
          setPromoting(null);
          setDeposit((current) => ({ open: true, key: current.key + 1 }));
          walletRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
        }}
      />
    </div>
  );
}
