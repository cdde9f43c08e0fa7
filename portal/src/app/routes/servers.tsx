import type { SubscriptionCreationResponse } from '@scn/proto';
import { useMemo } from 'react';
import { useLocation } from 'wouter';
import { paths } from '../../config/paths';
import { openAuth } from '../../features/auth/store';
import { ServerMarket } from '../../features/market/components/server-market';
import { useSession } from '../../features/session/store';

/**
 * spec 02 §2: the client dashboard reads this navigation state: it highlights the new
 * subscription and opens its QR modal.
 */
export interface NewSubscriptionState {
  newSubscriptionId: string;
  showSubscription: { subscriptionId: string; timestamp: number };
}

/** /servers (spec 01 §2 "Server market"): public; selecting and buying need a client account. */
export function ServersRoute() {
  const { user } = useSession();
  const [, navigate] = useLocation();
  const uuid = user?.uuid;
  const userType = user?.userType;
  const viewer = useMemo(() => (uuid && userType ? { uuid, userType } : null), [uuid, userType]);

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
        <p className="eyebrow">Server Market</p>
        <h1>Network Servers</h1>
        <p className="page-header__lead">
          Servers run by independent node operators, ranked by reliability and ping.
        </p>
      </header>
      <ServerMarket
        viewer={viewer}
        onSignIn={() => openAuth({ userType: 'client' })}
        onViewSubscription={viewSubscription}
      />
    </div>
  );
}
