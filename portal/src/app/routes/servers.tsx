import { Link } from 'wouter';
import { paths } from '../../config/paths';

/**
 * /servers (spec 01 §2 "Server market"). The market itself arrives with the next release; until
 * then the page says so honestly instead of showing made-up servers.
 */
export function ServersRoute() {
  return (
    <div className="container page">
      <header className="page-header">
        <p className="eyebrow">Server Market</p>
        <h1>Network Servers</h1>
        <p className="page-header__lead">
          Servers run by independent node operators, ranked by reliability and ping.
        </p>
      </header>
      <div className="empty-state card" data-testid="servers-empty">
        <svg
          className="empty-state__icon"
          viewBox="0 0 48 48"
          width="56"
          height="56"
          aria-hidden="true"
        >
          <rect
            x="8"
            y="9"
            width="32"
            height="12"
            rx="3"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          />
          <rect
            x="8"
            y="27"
            width="32"
            height="12"
            rx="3"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          />
          <circle cx="14" cy="15" r="1.8" fill="currentColor" />
          <circle cx="14" cy="33" r="1.8" fill="currentColor" />
        </svg>
        <h2>No servers found</h2>
        <p>Try adjusting your search filters to find more servers.</p>
        <p className="muted small">
          The server market opens with the next release. Meanwhile, read how{' '}
          <Link href={paths.economics}>service economics</Link> work or how we approach{' '}
          <Link href={paths.security}>security</Link>.
        </p>
      </div>
    </div>
  );
}
