import type { AuthResponse } from '@scn/proto';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { usePreloadedNamespaces, useT } from '../../../lib/i18n/i18n';
import { openPasswordReset, useAuthFlow } from '../store';
import { useOperatorTerms } from './account-type-chooser';
import { AuthFormDialog } from './auth-form-dialog';
import { TermsDialog } from './terms-dialog';
import { useAuthDialog } from './use-auth-dialog';

export interface AuthDialogProps {
  /** Called with the server's answer after a successful login or registration. */
  onAuthenticated: (result: AuthResponse) => void;
}

/** docs/product/screens.md#the-shell-and-the-market-screens "Auth dialog" and docs/product/states.md#market-and-account-states "Registration" / "Login". */
export function AuthDialog({ onAuthenticated }: AuthDialogProps) {
  const { t } = useT();
  const auth = useAuthDialog(onAuthenticated);
  const { userType } = useAuthFlow();
  const operatorTerms = useOperatorTerms();
  // The terms dialog that follows a sign-up opens without a wait for its catalogue.
  usePreloadedNamespaces(['legal'], auth.open);

  return (
    <>
      <AuthFormDialog
        open={auth.open}
        onClose={auth.close}
        title={auth.title}
        notice={auth.notice}
        onSubmit={auth.onSubmit}
        testId="auth-dialog"
        footer={
          <>
            {auth.mode === 'login' ? t('auth.dialog.noAccount') : t('auth.dialog.haveAccount')}{' '}
            <button
              type="button"
              className="link-button"
              onClick={auth.switchMode}
              disabled={auth.busy}
            >
              {auth.mode === 'login' ? t('auth.dialog.signUp') : t('auth.dialog.signIn')}
            </button>
          </>
        }
      >
        <TextField
          id="auth-email"
          label={t('auth.dialog.email')}
          type="email"
          name="email"
          autoComplete="email"
          placeholder={t('auth.dialog.emailPlaceholder')}
          value={auth.email}
          disabled={auth.busy}
          onChange={(event) => {
            auth.setEmail(event.target.value);
            auth.setCodeSent(false);
          }}
        />
        <TextField
          id="auth-password"
          label={t('auth.dialog.password')}
          type="password"
          name="password"
          autoComplete={auth.mode === 'login' ? 'current-password' : 'new-password'}
          placeholder={
            auth.mode === 'login'
              ? t('auth.dialog.passwordPlaceholderLogin')
              : t('auth.dialog.passwordPlaceholderNew')
          }
          value={auth.password}
          disabled={auth.busy}
          onChange={(event) => auth.setPassword(event.target.value)}
        />
        {auth.mode === 'register' && (
          <TextField
            id="auth-code"
            label={t('auth.dialog.code')}
            hint={t('auth.dialog.codeHint')}
            type="text"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            placeholder={t('auth.dialog.codePlaceholder')}
            value={auth.code}
            disabled={auth.busy}
            onChange={(event) => auth.setCode(event.target.value.replace(/\D/g, ''))}
            addon={
              <Button
                variant="secondary"
                onClick={() => void auth.onSendCode()}
                disabled={auth.busy || auth.sendingCode}
                data-testid="send-code"
              >
                {auth.sendingCode
                  ? t('auth.dialog.sendingCode')
                  : auth.codeSent
                    ? t('auth.dialog.codeSent')
                    : t('auth.dialog.sendCode')}
              </Button>
            }
          />
        )}
        {auth.mode === 'register' && userType === 'node' && (
          <p className="field__hint" data-testid="auth-node-terms">
            {operatorTerms}
          </p>
        )}
        {auth.mode === 'login' && (
          <div className="form__row-end">
            <button
              type="button"
              className="link-button"
              disabled={auth.busy}
              onClick={() => openPasswordReset(auth.email)}
            >
              {t('auth.dialog.forgotPassword')}
            </button>
          </div>
        )}
        <Button
          type="submit"
          variant="primary"
          block
          disabled={auth.busy}
          data-testid="auth-submit"
        >
          {auth.pending
            ? t('auth.dialog.pleaseWait')
            : auth.mode === 'login'
              ? t('auth.dialog.signIn')
              : t('auth.dialog.signUp')}
        </Button>
      </AuthFormDialog>
      <TermsDialog
        open={auth.open && auth.termsOpen}
        pending={auth.termsPending}
        onCancel={auth.onTermsCancel}
        onAccept={(accepted) => void auth.onTermsAccept(accepted)}
      />
    </>
  );
}
