import { useCallback, useEffect, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { Button, buttonClass } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { useT } from '../../lib/i18n/i18n';
import { onRealtime } from '../../lib/realtime';
import { RequireAccount } from '../../features/session/components/require-account';
import { EarnSslPanel } from '../../features/social/components/earn-ssl-panel';
import { useSession } from '../../features/session/store';
import { ClientSubscriptions } from '../../features/subscriptions/components/client-subscriptions';
import { DownloadAppsDialog } from '../../features/subscriptions/components/download-apps-dialog';
import { refreshSubscriptions } from '../../features/subscriptions/subscriptions-query';
import { VantagePointsPanel } from '../../features/vantage-points/components/vantage-points-panel';
import { WalletPanel } from '../../features/wallet/components/wallet-panel';
import { refreshWallet } from '../../features/wallet/api/get-wallet';
import './client-dashboard.css';

/** /client-dashboard (docs/product/screens.md#dashboards-and-information-pages): only for an authenticated client. */
export function ClientDashboardRoute() {
  return (
    <RequireAccount userType="client">
      <ClientDashboardPage />
    </RequireAccount>
  );
}

/** docs/product/screens.md#dashboards-and-information-pages: the navigation state the dashboard may be opened with (from a purchase). */
export interface ClientDashboardNavigationState {
  newSubscriptionId: string | null;
  showSubscriptionId: string | null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 && value.length <= 100 ? value : null;
}

/** Reads history.state defensively: anything could have put something there. */
export function readNavigationState(state: unknown): ClientDashboardNavigationState {
  if (!state || typeof state !== 'object')
    return { newSubscriptionId: null, showSubscriptionId: null };
  const record = state as Record<string, unknown>;
  const show = record.showSubscription;
  return {
    newSubscriptionId: text(record.newSubscriptionId),
    showSubscriptionId:
      show && typeof show === 'object'
        ? text((show as Record<string, unknown>).subscriptionId)
        : null,
  };
}

function ClientDashboardPage() {
  // Every namespace the page and its dialogs use, asked for at once (docs/i18n.md).
  // Every namespace of the page and its dialogs at once (in parallel, not one after another).
  useTranslation(['client', 'wallet', 'earn', 'vantage']);
  const { t } = useT('client');
  const { user } = useSession();
  const uuid = user?.uuid ?? null;
  // Acted on once: a reload or a return through history must not reopen the modal.
  const [navigation] = useState(() => readNavigationState(window.history.state));
  const [downloadsOpen, setDownloadsOpen] = useState(false);

  useEffect(() => {
    if (!navigation.newSubscriptionId && !navigation.showSubscriptionId) return;
    const state = { ...(window.history.state as Record<string, unknown>) };
    delete state.newSubscriptionId;
    delete state.showSubscription;
    window.history.replaceState(state, '');
  }, [navigation]);

  const reloadWallet = useCallback(() => {
    if (uuid) void refreshWallet('client', uuid);
  }, [uuid]);

  // docs/product/calls.md#dashboard-calls: 'server-list-updated' reloads the subscriptions and the wallet.
  useEffect(() => {
    if (!uuid) return;
    return onRealtime('server-list-updated', () => {
      void refreshSubscriptions(uuid);
      void refreshWallet('client', uuid);
    });
  }, [uuid]);

  // A blocked server of one of the client's subscriptions was replaced (its own room only).
  useEffect(() => {
    if (!uuid) return;
    return onRealtime('subscription-updated', () => void refreshSubscriptions(uuid));
  }, [uuid]);

  if (!user || !uuid) return null;
  return (
    <div className="container page dashboard client-dashboard">
      <header className="page-header page-header--split">
        <div>
          <p className="eyebrow">{t('dashboard.eyebrow')}</p>
          <h1>{t('dashboard.title')}</h1>
          <p className="page-header__lead">
            <Trans
              ns="client"
              i18nKey="dashboard.welcome"
              values={{ email: user.email }}
              components={{ strong: <strong data-testid="dashboard-email" dir="ltr" /> }}
            />
          </p>
        </div>
        <div className="page-header__actions">
          <Button variant="secondary" onClick={() => setDownloadsOpen(true)}>
            {t('dashboard.downloadApp')}
          </Button>
          <Link href={paths.servers} className={buttonClass({ variant: 'primary' })}>
            {t('dashboard.browseServers')}
          </Link>
        </div>
      </header>
      {/* What a client comes for first: the subscriptions, then the wallet, then promotions. */}
      <ClientSubscriptions
        ownerUuid={uuid}
        highlightId={navigation.newSubscriptionId}
        showQrFor={navigation.showSubscriptionId}
        onBalanceChanged={reloadWallet}
      />
      <WalletPanel type="client" ownerUuid={uuid} title={t('dashboard.walletTitle')} />
      {/* docs/product/screens.md#dashboards-and-information-pages: the share and earn modal. */}
      <EarnSslPanel userUuid={uuid} />
      {/* docs/reachability.md: any account may test servers from its own network. */}
      <VantagePointsPanel ownerUuid={uuid} />
      <DownloadAppsDialog open={downloadsOpen} onClose={() => setDownloadsOpen(false)} />
    </div>
  );
}
