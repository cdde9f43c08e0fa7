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
  const {
    open,
    mode,
    title,
    busy,
    pending,
    notice,
    email,
    setEmail,
    password,
    setPassword,
    code,
    setCode,
    codeSent,
    setCodeSent,
    sendingCode,
    termsOpen,
    termsPending,
    switchMode,
    onSendCode,
    onSubmit,
    close,
    onTermsCancel,
    onTermsAccept,
  } = useAuthDialog(onAuthenticated);

  return (
    <>
      <Dialog open={open} onClose={close} title={title} size="sm" data-testid="auth-dialog">
        {notice && (
          <Banner tone={notice.tone} data-testid="auth-message">
            {notice.text}
          </Banner>
        )}
        <form className="form" onSubmit={onSubmit} noValidate>
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
              value={email}
              disabled={busy}
              onChange={(event) => {
                setEmail(event.target.value);
                setCodeSent(false);
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
              autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
              placeholder={mode === 'login' ? 'Your password' : 'At least 8 characters'}
              value={password}
              disabled={busy}
              onChange={(event) => setPassword(event.target.value)}
            />
          </div>
          {mode === 'register' && (
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
                  value={code}
                  disabled={busy}
                  aria-describedby="auth-code-hint"
                  onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
                />
                <Button
                  variant="secondary"
                  onClick={() => void onSendCode()}
                  disabled={busy || sendingCode}
                  data-testid="send-code"
                >
                  {sendingCode ? 'Sending...' : codeSent ? 'Code Sent' : 'Send Code'}
                </Button>
              </div>
              <p className="field__hint" id="auth-code-hint">
                A 6-digit verification code will be sent to your email.
              </p>
            </div>
          )}
          {mode === 'login' && (
            <div className="form__row-end">
              <button
                type="button"
                className="link-button"
                disabled={busy}
                onClick={() => openPasswordReset(email)}
              >
                Forgot Password?
              </button>
            </div>
          )}
          <Button type="submit" variant="primary" block disabled={busy} data-testid="auth-submit">
            {pending ? 'Please wait...' : mode === 'login' ? 'Sign In' : 'Sign Up'}
          </Button>
        </form>
        <p className="dialog__footer-text">
          {mode === 'login' ? "Don't have an account?" : 'Already have an account?'}{' '}
          <button type="button" className="link-button" onClick={switchMode} disabled={busy}>
            {mode === 'login' ? 'Sign Up' : 'Sign In'}
          </button>
        </p>
      </Dialog>
      <TermsDialog
        open={open && termsOpen}
        pending={termsPending}
        onCancel={onTermsCancel}
        onAccept={(accepted) => void onTermsAccept(accepted)}
      />
    </>
  );
}
