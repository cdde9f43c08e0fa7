import { useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { paths } from '../../../config/paths';
import { useT } from '../../../lib/i18n/i18n';
import { dashboardPathFor, logout, useSession } from '../store';
import '../session.css';

/** docs/product/screens.md#the-shell-and-the-market-screens "Shell": the signed-in profile dropdown of the top bar. */
export function ProfileMenu() {
  const { t } = useT();
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  const [, navigate] = useLocation();
  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: MouseEvent) => {
      if (rootRef.current && !rootRef.current.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      triggerRef.current?.focus();
    };
    document.addEventListener('mousedown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('mousedown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  if (!user) return null;
  const localPart = user.email.split('@')[0] ?? user.email;
  const dashboardLabel =
    user.userType === 'client' ? t('profileMenu.clientDashboard') : t('profileMenu.nodeDashboard');

  return (
    <div className="profile-menu" ref={rootRef}>
      <button
        ref={triggerRef}
        type="button"
        className="profile-menu__trigger"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
        data-testid="profile-menu"
      >
        <span className="avatar" aria-hidden="true">
          {localPart.charAt(0).toUpperCase()}
        </span>
        <span className="profile-menu__name">{localPart}</span>
        <svg
          className="profile-menu__chevron"
          viewBox="0 0 20 20"
          width="16"
          height="16"
          aria-hidden="true"
        >
          <path
            d="M5 7.5l5 5 5-5"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            strokeLinecap="round"
          />
        </svg>
      </button>
      {open && (
        <div id={panelId} className="profile-menu__panel" data-testid="profile-dropdown">
          <div className="profile-menu__section">
            <p className="profile-menu__label">{t('profileMenu.signedInAs')}</p>
            <p className="profile-menu__email" dir="ltr" data-testid="profile-email">
              {user.email}
            </p>
            <p className="profile-menu__type">
              {user.userType === 'client'
                ? t('profileMenu.clientAccount')
                : t('profileMenu.nodeAccount')}
            </p>
          </div>
          <div className="profile-menu__section">
            <p className="profile-menu__label">{t('profileMenu.uuid')}</p>
            <div className="profile-menu__uuid" dir="ltr">
              <code data-testid="uuid-value">{user.uuid}</code>
              <CopyButton text={user.uuid} data-testid="copy-uuid" />
            </div>
          </div>
          <div className="profile-menu__actions">
            <Button
              variant="primary"
              block
              onClick={() => {
                setOpen(false);
                navigate(dashboardPathFor(user.userType));
              }}
            >
              {dashboardLabel}
            </Button>
            <Button
              variant="ghost"
              block
              onClick={() => {
                setOpen(false);
                void logout();
                navigate(paths.home);
              }}
            >
              {t('shell.signOut')}
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
