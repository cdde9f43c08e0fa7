import { useEffect } from 'react';
import { Link, useLocation } from 'wouter';
import { Button, buttonClass } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { openAuth } from '../../features/auth/store';
import { dashboardPathFor, logout, useSession } from '../../features/session/store';
import { MAIN_LINKS } from './nav-links';

export interface MobileMenuProps {
  onClose: () => void;
}

/** spec 01 §2 "Shell": the mobile menu with the same links, a Dashboard link and Sign out. */
export function MobileMenu({ onClose }: MobileMenuProps) {
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
      <nav className="container mobile-menu__nav" aria-label="Mobile">
        {MAIN_LINKS.map((link) => (
          <Link
            key={link.href}
            href={link.href}
            className="mobile-menu__link"
            aria-current={location === link.href ? 'page' : undefined}
          >
            {link.label}
          </Link>
        ))}
        {user ? (
          <>
            <p className="mobile-menu__user">
              Signed in as <strong>{user.email}</strong>
            </p>
            <Link
              href={dashboardPathFor(user.userType)}
              className={buttonClass({ variant: 'primary', block: true })}
            >
              Dashboard
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
              Sign out
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
              Log In
            </Button>
            <Button
              variant="primary"
              block
              onClick={() => {
                onClose();
                openAuth({ mode: 'register' });
              }}
            >
              Sign Up
            </Button>
          </div>
        )}
      </nav>
    </div>
  );
}
