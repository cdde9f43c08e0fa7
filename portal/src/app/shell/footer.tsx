import { Link } from 'wouter';
import { SUPPORT_EMAIL } from '../../config/env';
import { BrandMark } from './brand';
import { LEGAL_LINKS, RESOURCE_LINKS, type NavLink } from './nav-links';

function LinkList({ title, links }: { title: string; links: readonly NavLink[] }) {
  return (
    <nav className="footer__nav" aria-label={title}>
      <h2 className="footer__heading">{title}</h2>
      <ul>
        {links.map((link) => (
          <li key={link.label}>
            <Link href={link.href}>{link.label}</Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** spec 01 §2 "Shell": blurb, support e-mail, Resources and Legal lists, copyright. */
export function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className="footer" data-testid="footer">
      <div className="container footer__grid">
        <div className="footer__about">
          <div className="footer__brand">
            <BrandMark size={28} />
            <span>SCN</span>
          </div>
          <p className="footer__blurb">
            Secure Connection Network connecting node operators with clients
          </p>
          <p className="footer__support">
            Support:{' '}
            <a href={`mailto:${SUPPORT_EMAIL}`} data-testid="support-email">
              {SUPPORT_EMAIL}
            </a>
          </p>
        </div>
        <LinkList title="Resources" links={RESOURCE_LINKS} />
        <LinkList title="Legal" links={LEGAL_LINKS} />
      </div>
      <div className="container footer__bottom">
        <p>© {year} Secure Connection Network. All rights reserved.</p>
      </div>
    </footer>
  );
}
