import { Link } from 'wouter';
import { buttonClass } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { RequireAccount } from '../../features/session/components/require-account';
import { useSession } from '../../features/session/store';

/** /node-dashboard (spec 02 §2): only for an authenticated node operator. */
export function NodeDashboardRoute() {
  return (
    <RequireAccount userType="node">
      <NodeDashboard />
    </RequireAccount>
  );
}

function NodeDashboard() {
  const { user } = useSession();
  return (
    <div className="container page dashboard">
      <header className="page-header page-header--split">
        <div>
          <p className="eyebrow">Node Operator account</p>
          <h1>Node Dashboard</h1>
          <p className="page-header__lead">
            Welcome, <strong data-testid="dashboard-email">{user?.email}</strong>
          </p>
        </div>
        <div className="page-header__actions">
          <Link href={paths.servers} className={buttonClass({ variant: 'primary' })}>
            Browse Servers
          </Link>
        </div>
      </header>
      <section
        className="card coming-soon"
        aria-labelledby="node-soon-title"
        data-testid="coming-soon"
      >
        <span className="badge badge--info">Coming soon</span>
        <h2 id="node-soon-title">Your servers and earnings are on their way</h2>
        <p>
          Your operator account is ready. Adding servers, the setup wizard, health monitoring and
          the node wallet arrive with the next releases.
        </p>
        <ul className="check-list">
          <li>Add servers and follow their uptime, reliability and connections</li>
          <li>Guided VPS setup script</li>
          <li>Node wallet with rewards and withdrawals</li>
        </ul>
      </section>
      <div className="grid grid--2 dashboard__links">
        <Link href={paths.servers} className="card card--link">
          <h3>Server market</h3>
          <p>See how servers appear to clients in the market.</p>
        </Link>
        <Link href={`${paths.economics}#node-operators`} className="card card--link">
          <h3>Rewards for operators</h3>
          <p>Rewards, reliability, slashing and staking explained.</p>
        </Link>
      </div>
    </div>
  );
}
