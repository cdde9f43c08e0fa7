import { paths } from '../../config/paths';
import { DashboardPlaceholder } from './dashboard-placeholder';

/** /client-dashboard (spec 02 §2): only for an authenticated client. */
export function ClientDashboardRoute() {
  return (
    <DashboardPlaceholder
      userType="client"
      eyebrow="Client account"
      title="Client Dashboard"
      soonTitle="Your wallet and subscriptions are on their way"
      soonText="Your account is ready. The SSL wallet, deposits and subscription management arrive with the next releases; nothing is charged in the meantime."
      soonItems={[
        'Wallet balance, deposits and transaction history',
        'Active and paused subscriptions with connection strings and QR codes',
        'Client app downloads',
      ]}
      links={[
        {
          href: paths.servers,
          title: 'Server market',
          text: 'See the network’s servers and what each one offers.',
        },
        {
          href: `${paths.economics}#clients`,
          title: 'Pricing for clients',
          text: 'How SSL credits, subscriptions and billing work.',
        },
      ]}
    />
  );
}
