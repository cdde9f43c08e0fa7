import type { AuthResponse } from '@scn/proto';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { openPasswordReset } from '../store';
import { TermsDialog } from './terms-dialog';
import { useAuthDialog } from './use-auth-dialog';

export interface AuthDialogProps {
  /** Called with the server's answer after a successful login or registration. */
  onAuthenticated: (result: AuthResponse) => void;
}

/** spec 01 §2 "Auth dialog" and §4 "Registration" / "Login". */
export function AuthDialog({ onAuthenticated }: AuthDialogProps) {
  const auth = useAuthDialog(onAuthenticated);

  return (
    <>
      <Dialog
        open={auth.open}
        onClose={auth.close}
        title={auth.title}
        size="sm"
        data-testid="auth-dialog"
      >
        {auth.notice && (
          <Banner tone={auth.notice.tone} data-testid="auth-message">
            {auth.notice.text}
          </Banner>
        )}
        <form className="form" onSubmit={auth.onSubmit} noValidate>
          <div className="field">
            <label className="field__label" htmlFor="auth-email">
              Email
            </label>
            <input
              id="auth-email"
              className="input"
              type="email"
              name="email"
              autoComplete="email"
              placeholder="you@example.com"
              value={auth.email}
              disabled={auth.busy}
              onChange={(event) => {
                auth.setEmail(event.target.value);
                auth.setCodeSent(false);
              }}
            />
          </div>
          <div className="field">
            <label className="field__label" htmlFor="auth-password">
              Password
            </label>
            <input
              id="auth-password"
              className="input"
              type="password"
              name="password"
              autoComplete={auth.mode === 'login' ? 'current-password' : 'new-password'}
              placeholder={auth.mode === 'login' ? 'Your password' : 'At least 8 characters'}
              value={auth.password}
              disabled={auth.busy}
              onChange={(event) => auth.setPassword(event.target.value)}
            />
          </div>
          {auth.mode === 'register' && (
            <div className="field">
              <label className="field__label" htmlFor="auth-code">
                Verification Code
              </label>
              <div className="input-group">
                <input
                  id="auth-code"
                  className="input"
                  type="text"
                  name="code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={6}
                  placeholder="6-digit code"
                  value={auth.code}
                  disabled={auth.busy}
                  aria-describedby="auth-code-hint"
                  onChange={(event) => auth.setCode(event.target.value.replace(/\D/g, ''))}
                />
                <Button
                  variant="secondary"
                  onClick={() => void auth.onSendCode()}
                  disabled={auth.busy || auth.sendingCode}
                  data-testid="send-code"
                >
                  {auth.sendingCode ? 'Sending...' : auth.codeSent ? 'Code Sent' : 'Send Code'}
                </Button>
              </div>
              <p className="field__hint" id="auth-code-hint">
                A 6-digit verification code will be sent to your email.
              </p>
            </div>
          )}
          {auth.mode === 'login' && (
            <div className="form__row-end">
              <button
                type="button"
                className="link-button"
                disabled={auth.busy}
                onClick={() => openPasswordReset(auth.email)}
              >
                Forgot Password?
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
            {auth.pending ? 'Please wait...' : auth.mode === 'login' ? 'Sign In' : 'Sign Up'}
          </Button>
        </form>
        <p className="dialog__footer-text">
          {auth.mode === 'login' ? "Don't have an account?" : 'Already have an account?'}{' '}
          <button
            type="button"
            className="link-button"
            onClick={auth.switchMode}
            disabled={auth.busy}
          >
            {auth.mode === 'login' ? 'Sign Up' : 'Sign In'}
          </button>
        </p>
      </Dialog>
      <TermsDialog
        open={auth.open && auth.termsOpen}
        pending={auth.termsPending}
        onCancel={auth.onTermsCancel}
        onAccept={(accepted) => void auth.onTermsAccept(accepted)}
      />
    </>
  );
}
