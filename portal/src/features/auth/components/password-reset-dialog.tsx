import { useRef } from 'react';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n/i18n';
import { backToSignIn, closeAuth } from '../store';
import { AuthFormDialog } from './auth-form-dialog';
import { usePasswordResetDialog } from './use-password-reset-dialog';

/** docs/product/screens.md#the-shell-and-the-market-screens "Password-reset dialog (two steps)" and docs/product/states.md#market-and-account-states "Password reset". */
export function PasswordResetDialog() {
  const { t } = useT();
  const codeRef = useRef<HTMLInputElement>(null);
  const reset = usePasswordResetDialog(codeRef);

  return (
    <AuthFormDialog
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
      notice={reset.notice}
      onSubmit={reset.onSubmit}
      testId="reset-dialog"
      footer={
        <>
          {t('auth.reset.remembered')}{' '}
          <button type="button" className="link-button" onClick={() => backToSignIn(reset.email)}>
            {t('auth.reset.signInInstead')}
          </button>
        </>
      }
    >
      {reset.step === 1 ? (
        <>
          <TextField
            id="reset-email"
            label={t('auth.dialog.email')}
            type="email"
            autoComplete="email"
            placeholder={t('auth.dialog.emailPlaceholder')}
            value={reset.email}
            disabled={reset.busy}
            onChange={(event) => reset.setEmail(event.target.value)}
          />
          <Button type="submit" variant="primary" block disabled={reset.busy}>
            {reset.pending ? t('auth.reset.sending') : t('auth.reset.send')}
          </Button>
        </>
      ) : (
        <>
          <TextField
            inputRef={codeRef}
            id="reset-code"
            label={t('auth.reset.code')}
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
          <TextField
            id="reset-new-password"
            label={t('auth.reset.newPassword')}
            type="password"
            autoComplete="new-password"
            placeholder={t('auth.dialog.passwordPlaceholderNew')}
            value={reset.newPassword}
            disabled={reset.busy}
            onChange={(event) => reset.setNewPassword(event.target.value)}
          />
          <TextField
            id="reset-confirm-password"
            label={t('auth.reset.confirmPassword')}
            type="password"
            autoComplete="new-password"
            value={reset.confirmPassword}
            disabled={reset.busy}
            onChange={(event) => reset.setConfirmPassword(event.target.value)}
          />
          <Button type="submit" variant="primary" block disabled={reset.busy}>
            {reset.pending ? t('auth.reset.resetting') : t('auth.reset.submit')}
          </Button>
          <Button variant="ghost" block disabled={reset.busy} onClick={reset.backToRequest}>
            {t('auth.reset.back')}
          </Button>
        </>
      )}
    </AuthFormDialog>
  );
}
