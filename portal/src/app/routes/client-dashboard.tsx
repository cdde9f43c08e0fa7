import { Link } from 'wouter';
import { buttonClass } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { RequireAccount } from '../../features/session/components/require-account';
import { useSession } from '../../features/session/store';

/** /client-dashboard (spec 02 §2): only for an authenticated client. */
export function ClientDashboardRoute() {
  return (
    <RequireAccount userType="client">
      <ClientDashboard />
    </RequireAccount>
  );
}

function ClientDashboard() {
  const { user } = useSession();
  return (
    <div className="container page dashboard">
      <header className="page-header page-header--split">
        <div>
          <p className="eyebrow">Client account</p>
          <h1>Client Dashboard</h1>
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
        aria-labelledby="client-soon-title"
        data-testid="coming-soon"
      >
        <span className="badge badge--info">Coming soon</span>
        <h2 id="client-soon-title">Your wallet and subscriptions are on their way</h2>
        <p>
          Your account is ready. The SSL wallet, deposits and subscription management arrive with
          the next releases; nothing is charged in the meantime.
        </p>
        <ul className="check-list">
          <li>Wallet balance, deposits and transaction history</li>
          <li>Active and paused subscriptions with connection strings and QR codes</li>
          <li>Client app downloads</li>
        </ul>
      </section>
      <div className="grid grid--2 dashboard__links">
        <Link href={paths.servers} className="card card--link">
          <h3>Server market</h3>
          <p>See the network’s servers and what each one offers.</p>
        </Link>
        <Link href={`${paths.economics}#clients`} className="card card--link">
          <h3>Pricing for clients</h3>
          <p>How SSL credits, subscriptions and billing work.</p>
        </Link>
      </div>
    </div>
  );
}
