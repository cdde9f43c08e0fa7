import { useRef } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { useT } from '../../../lib/i18n/i18n';
import { backToSignIn, closeAuth } from '../store';
import { usePasswordResetDialog } from './use-password-reset-dialog';

/** spec 01 §2 "Password-reset dialog (two steps)" and §4 "Password reset". */
export function PasswordResetDialog() {
  const { t } = useT();
  const codeRef = useRef<HTMLInputElement>(null);
  const reset = usePasswordResetDialog(codeRef);

  return (
    <Dialog
      open={reset.open}
      onClose={closeAuth}
      title={t('auth.reset.title')}
      description={
        reset.step === 1
          ? reset.userType === 'client'
            ? t('auth.reset.requestTextClient')
            : t('auth.reset.requestTextNode')
          : t('auth.reset.codeText')
      }
      size="sm"
      data-testid="reset-dialog"
    >
      {reset.notice && (
        <Banner tone={reset.notice.tone} data-testid="reset-message">
          {reset.notice.text}
        </Banner>
      )}
      <form className="form" onSubmit={reset.onSubmit} noValidate>
        {reset.step === 1 ? (
          <>
            <div className="field">
              <label className="field__label" htmlFor="reset-email">
                {t('auth.dialog.email')}
              </label>
              <input
                id="reset-email"
                className="input"
                type="email"
                autoComplete="email"
                placeholder={t('auth.dialog.emailPlaceholder')}
                value={reset.email}
                disabled={reset.busy}
                onChange={(event) => reset.setEmail(event.target.value)}
              />
            </div>
            <Button type="submit" variant="primary" block disabled={reset.busy}>
              {reset.pending ? t('auth.reset.sending') : t('auth.reset.send')}
            </Button>
          </>
        ) : (
          <>
            <div className="field">
              <label className="field__label" htmlFor="reset-code">
                {t('auth.reset.code')}
              </label>
              <input
                ref={codeRef}
                id="reset-code"
                className="input"
                type="text"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                placeholder={t('auth.reset.codePlaceholder')}
                value={reset.code}
                disabled={reset.busy}
                onChange={(event) => reset.setCode(event.target.value.replace(/\D/g, ''))}
                data-autofocus
              />
            </div>
            <div className="field">
              <label className="field__label" htmlFor="reset-new-password">
                {t('auth.reset.newPassword')}
              </label>
              <input
                id="reset-new-password"
                className="input"
                type="password"
                autoComplete="new-password"
                placeholder={t('auth.dialog.passwordPlaceholderNew')}
                value={reset.newPassword}
                disabled={reset.busy}
                onChange={(event) => reset.setNewPassword(event.target.value)}
              />
            </div>
            <div className="field">
              <label className="field__label" htmlFor="reset-confirm-password">
                {t('auth.reset.confirmPassword')}
              </label>
              <input
                id="reset-confirm-password"
                className="input"
                type="password"
                autoComplete="new-password"
                value={reset.confirmPassword}
                disabled={reset.busy}
                onChange={(event) => reset.setConfirmPassword(event.target.value)}
              />
            </div>
            <Button type="submit" variant="primary" block disabled={reset.busy}>
              {reset.pending ? t('auth.reset.resetting') : t('auth.reset.submit')}
            </Button>
            <Button variant="ghost" block disabled={reset.busy} onClick={reset.backToRequest}>
              {t('auth.reset.back')}
            </Button>
          </>
        )}
      </form>
      <p className="dialog__footer-text">
        {t('auth.reset.remembered')}{' '}
        <button type="button" className="link-button" onClick={() => backToSignIn(reset.email)}>
          {t('auth.reset.signInInstead')}
        </button>
      </p>
    </Dialog>
  );
}
