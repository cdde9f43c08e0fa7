import { useEffect } from 'react';
import { Link, useLocation } from 'wouter';
import { Button, buttonClass } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { openAuth } from '../../features/auth/store';
import { dashboardPathFor, logout, useSession } from '../../features/session/store';
import { Trans } from 'react-i18next';
import { useT } from '../../lib/i18n/i18n';
import { LanguageSwitcher } from './language-switcher';
import { MAIN_LINKS } from './nav-links';

export interface MobileMenuProps {
  onClose: () => void;
}

/** docs/product/screens.md#the-shell-and-the-market-screens "Shell": the mobile menu with the same links, a Dashboard link and Sign out. */
export function MobileMenu({ onClose }: MobileMenuProps) {
  const { t } = useT();
  const { user } = useSession();
  const [location, navigate] = useLocation();

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [onClose]);

  return (
    <div id="mobile-menu" className="mobile-menu" data-testid="mobile-menu">
      <nav className="container mobile-menu__nav" aria-label={t('shell.nav.mobile')}>
        {MAIN_LINKS.map((link) => (
          <Link
            key={link.href}
            href={link.href}
            className="mobile-menu__link"
            aria-current={location === link.href ? 'page' : undefined}
          >
            {t(link.labelKey)}
          </Link>
        ))}
        {user ? (
          <>
            <p className="mobile-menu__user">
              <Trans
                i18nKey="shell.signedInAs"
                values={{ email: user.email }}
                components={{ strong: <strong dir="ltr" /> }}
              />
            </p>
            <Link
              href={dashboardPathFor(user.userType)}
              className={buttonClass({ variant: 'primary', block: true })}
            >
              {t('shell.dashboard')}
            </Link>
            <Button
              variant="ghost"
              block
              onClick={() => {
                onClose();
                void logout();
                navigate(paths.home);
              }}
            >
              {t('shell.signOut')}
            </Button>
          </>
        ) : (
          <div className="mobile-menu__auth">
            <Button
              variant="secondary"
              block
              onClick={() => {
                onClose();
                openAuth({ mode: 'login' });
              }}
            >
              {t('shell.logIn')}
            </Button>
            <Button
              variant="primary"
              block
              onClick={() => {
                onClose();
                openAuth({ mode: 'register' });
              }}
            >
              {t('shell.signUp')}
            </Button>
          </div>
        )}
        <LanguageSwitcher className="mobile-menu__language" testId="mobile-language-switcher" />
      </nav>
    </div>
  );
}
