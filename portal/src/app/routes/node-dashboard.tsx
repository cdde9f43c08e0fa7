import { Link } from 'wouter';
import { buttonClass } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { NodeDashboard } from '../../features/nodes/components/node-dashboard';
import { RequireAccount } from '../../features/session/components/require-account';
import { useSession } from '../../features/session/store';

/** /node-dashboard (spec 02 §2): only for an authenticated node operator. */
export function NodeDashboardRoute() {
  return (
    <RequireAccount userType="node">
      <NodeDashboardPage />
    </RequireAccount>
  );
}

function NodeDashboardPage() {
  const { user } = useSession();
  if (!user) return null;
  return (
    <div className="container page dashboard">
      <header className="page-header page-header--split">
        <div>
          <p className="eyebrow">Node Operator account</p>
          <h1>Node Dashboard</h1>
          <p className="page-header__lead">
            Welcome, <strong data-testid="dashboard-email">{user.email}</strong>
          </p>
        </div>
        <div className="page-header__actions">
          <Link
            href={`${paths.economics}#node-operators`}
            className={buttonClass({ variant: 'secondary' })}
          >
            Operator Rewards
          </Link>
          <Link href={paths.servers} className={buttonClass({ variant: 'ghost' })}>
            Server Market
          </Link>
        </div>
      </header>
      <NodeDashboard ownerUuid={user.uuid} />
    </div>
  );
}
