import { paths } from '../../config/paths';
import { DashboardPlaceholder } from './dashboard-placeholder';

/** /node-dashboard (spec 02 §2): only for an authenticated node operator. */
export function NodeDashboardRoute() {
  return (
    <DashboardPlaceholder
      userType="node"
      eyebrow="Node Operator account"
      title="Node Dashboard"
      soonTitle="Your servers and earnings are on their way"
      soonText="Your operator account is ready. Adding servers, the setup wizard, health monitoring and the node wallet arrive with the next releases."
      soonItems={[
        'Add servers and follow their uptime, reliability and connections',
        'Guided VPS setup script',
        'Node wallet with rewards and withdrawals',
      ]}
      links={[
        {
          href: paths.servers,
          title: 'Server market',
          text: 'See how servers appear to clients in the market.',
        },
        {
          href: `${paths.economics}#node-operators`,
          title: 'Rewards for operators',
          text: 'Rewards, reliability, slashing and staking explained.',
        },
      ]}
    />
  );
}
