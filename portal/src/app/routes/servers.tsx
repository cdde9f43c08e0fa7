import type { SubscriptionCreationResponse } from '@scn/proto';
import { useMemo, useState } from 'react';
import { useLocation } from 'wouter';
import { paths } from '../../config/paths';
import { openAuth } from '../../features/auth/store';
import { ServerMarket } from '../../features/market/components/server-market';
import { PromoteDialog } from '../../features/promotions/components/promote-dialog';
import { useSession } from '../../features/session/store';
import { usePreloadedNamespaces, useT } from '../../lib/i18n/i18n';

/**
 * docs/product/screens.md#dashboards-and-information-pages: the client dashboard reads this navigation state: it highlights the new
 * subscription and opens its QR modal.
 */
export interface NewSubscriptionState {
  newSubscriptionId: string;
  showSubscription: { subscriptionId: string; timestamp: number };
}

/** /servers (docs/product/screens.md#the-shell-and-the-market-screens "Server market"): public; selecting and buying need a client account. */
export function ServersRoute() {
  const { t } = useT();
  const { user } = useSession();
  const [, navigate] = useLocation();
  const uuid = user?.uuid;
  const userType = user?.userType;
  const viewer = useMemo(() => (uuid && userType ? { uuid, userType } : null), [uuid, userType]);
  // The purchase dialogs (a client) and the promote dialog (an operator) open without a wait.
  usePreloadedNamespaces(userType === 'node' ? ['earn'] : ['client'], viewer !== null);
  const [promoting, setPromoting] = useState<{ id: string; name: string } | null>(null);

  const viewSubscription = (result: SubscriptionCreationResponse) => {
    const state: NewSubscriptionState = {
      newSubscriptionId: result.subscriptionId,
      showSubscription: { subscriptionId: result.subscriptionId, timestamp: Date.now() },
    };
    navigate(paths.clientDashboard, { state });
  };

  return (
    <div className="container page">
      <header className="page-header">
        <p className="eyebrow">{t('market.page.eyebrow')}</p>
        <h1>{t('market.page.title')}</h1>
        <p className="page-header__lead">{t('market.page.lead')}</p>
      </header>
      <ServerMarket
        viewer={viewer}
        onSignIn={() => openAuth({ userType: 'client' })}
        onViewSubscription={viewSubscription}
        onPromote={(server) => setPromoting({ id: server.id, name: server.name })}
      />
      <PromoteDialog
        server={promoting}
        onClose={() => setPromoting(null)}
        // docs/product/screens.md#the-shell-and-the-market-screens: to the node dashboard, asking it to open the wallet's deposit view.
        onAddBalance={() => navigate(paths.nodeDashboard, { state: { openDeposit: true } })}
      />
    </div>
  );
}
