import { Link } from 'wouter';
import { SUPPORT_EMAIL } from '../../config/env';
import { formatNumber } from '../../lib/i18n/format';
import { useT } from '../../lib/i18n/i18n';
import { BrandMark } from './brand';
import { LEGAL_LINKS, RESOURCE_LINKS, type NavLink } from './nav-links';

function LinkList({ title, links }: { title: string; links: readonly NavLink[] }) {
  const { t } = useT();
  return (
    <nav className="footer__nav" aria-label={title}>
      <h2 className="footer__heading">{title}</h2>
      <ul>
        {links.map((link) => (
          <li key={link.labelKey}>
            <Link href={link.href}>{t(link.labelKey)}</Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** docs/product/screens.md#the-shell-and-the-market-screens "Shell": blurb, support e-mail, Resources and Legal lists, copyright. */
export function Footer() {
  const { t, locale } = useT();
  const year = new Date().getFullYear();
  return (
    <footer className="footer" data-testid="footer">
      <div className="container footer__grid">
        <div className="footer__about">
          <div className="footer__brand">
            <BrandMark size={28} />
            <span>SCN</span>
          </div>
          <p className="footer__blurb">{t('shell.footer.blurb')}</p>
          <p className="footer__support">
            {t('shell.footer.support')}{' '}
            <a href={`mailto:${SUPPORT_EMAIL}`} dir="ltr" data-testid="support-email">
              {SUPPORT_EMAIL}
            </a>
          </p>
        </div>
        <LinkList title={t('shell.footer.resources')} links={RESOURCE_LINKS} />
        <LinkList title={t('shell.footer.legal')} links={LEGAL_LINKS} />
      </div>
      <div className="container footer__bottom">
        <p>
          {t('shell.footer.copyright', {
            year: formatNumber(year, locale, { useGrouping: false }),
          })}
        </p>
      </div>
    </footer>
  );
}
