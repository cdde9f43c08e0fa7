import { useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { Button } from '../../components/ui/button';
import { openAuth } from '../../features/auth/store';
import { ProfileMenu } from '../../features/session/components/profile-menu';
import { useSession } from '../../features/session/store';
import { useT } from '../../lib/i18n/i18n';
import { Brand } from './brand';
import { LanguageSwitcher } from './language-switcher';
import { MobileMenu } from './mobile-menu';
import { MAIN_LINKS } from './nav-links';

/** docs/product/constants.md#market-prices-and-limits: the bar gains its shadow after 10 px of scrolling. */
const SHADOW_AFTER_PX = 10;

/** docs/product/screens.md#the-shell-and-the-market-screens "Shell": the fixed top bar and its 4.5rem spacer. */
export function TopBar() {
  const { t } = useT();
  const { isAuthenticated } = useSession();
  const [location] = useLocation();
  const [scrolled, setScrolled] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuLocation, setMenuLocation] = useState(location);

  // Any navigation closes the mobile menu.
  if (menuLocation !== location) {
    setMenuLocation(location);
    setMenuOpen(false);
  }

  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > SHADOW_AFTER_PX);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  return (
    <>
      <header className={`topbar${scrolled ? ' topbar--scrolled' : ''}`} data-testid="top-bar">
        <div className="container topbar__inner">
          <Brand />
          <nav className="topbar__nav" aria-label={t('shell.nav.main')}>
            {MAIN_LINKS.map((link) => (
              <Link
                key={link.href}
                href={link.href}
                className="topbar__link"
                aria-current={location === link.href ? 'page' : undefined}
              >
                {t(link.labelKey)}
              </Link>
            ))}
          </nav>
          <div className="topbar__actions">
            <LanguageSwitcher className="topbar__language" testId="language-switcher" />
            {isAuthenticated ? (
              <ProfileMenu />
            ) : (
              <>
                <Button variant="ghost" size="sm" onClick={() => openAuth({ mode: 'login' })}>
                  {t('shell.logIn')}
                </Button>
                <Button variant="primary" size="sm" onClick={() => openAuth({ mode: 'register' })}>
                  {t('shell.signUp')}
                </Button>
              </>
            )}
          </div>
          <button
            type="button"
            className="topbar__toggle"
            aria-label={menuOpen ? t('shell.closeMenu') : t('shell.openMenu')}
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            onClick={() => setMenuOpen((open) => !open)}
            data-testid="mobile-menu-toggle"
          >
            <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
              {menuOpen ? (
                <path
                  d="M6 6l12 12M18 6L6 18"
                  stroke="currentColor"
                  strokeWidth="2"
                  strokeLinecap="round"
                />
              ) : (
                <path
                  d="M4 7h16M4 12h16M4 17h16"
                  stroke="currentColor"
                  strokeWidth="2"
                  strokeLinecap="round"
                />
              )}
            </svg>
          </button>
        </div>
        {menuOpen && <MobileMenu onClose={() => setMenuOpen(false)} />}
      </header>
      <div className="topbar-spacer" aria-hidden="true" />
    </>
  );
}
