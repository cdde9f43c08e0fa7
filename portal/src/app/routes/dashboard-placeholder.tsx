import type { UserType } from '@scn/proto';
import { Link } from 'wouter';
import { buttonClass } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { RequireAccount } from '../../features/session/components/require-account';
import { useSession } from '../../features/session/store';

interface LinkCard {
  href: string;
  title: string;
  text: string;
}

export interface DashboardPlaceholderProps {
  userType: UserType;
  eyebrow: string;
  title: string;
  soonTitle: string;
  soonText: string;
  soonItems: readonly string[];
  links: readonly [LinkCard, LinkCard];
}

/**
 * A dashboard before its features land: guarded for its account type (spec 02 §2), with a
 * welcome, an honest "coming soon" panel and useful links. The next releases replace it.
 */
export function DashboardPlaceholder(props: DashboardPlaceholderProps) {
  return (
    <RequireAccount userType={props.userType}>
      <DashboardPlaceholderBody {...props} />
    </RequireAccount>
  );
}

function DashboardPlaceholderBody({
  userType,
  eyebrow,
  title,
  soonTitle,
  soonText,
  soonItems,
  links,
}: DashboardPlaceholderProps) {
  const { user } = useSession();
  const soonId = `${userType}-soon-title`;
  return (
    <div className="container page dashboard">
      <header className="page-header page-header--split">
        <div>
          <p className="eyebrow">{eyebrow}</p>
          <h1>{title}</h1>
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
      <section className="card coming-soon" aria-labelledby={soonId} data-testid="coming-soon">
        <span className="badge badge--info">Coming soon</span>
        <h2 id={soonId}>{soonTitle}</h2>
        <p>{soonText}</p>
        <ul className="check-list">
          {soonItems.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      </section>
      <div className="grid grid--2 dashboard__links">
        {links.map((link) => (
          <Link key={link.href} href={link.href} className="card card--link">
            <h3>{link.title}</h3>
            <p>{link.text}</p>
          </Link>
        ))}
      </div>
    </div>
  );
}
