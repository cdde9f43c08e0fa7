import { useRef } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { backToSignIn, closeAuth } from '../store';
import { usePasswordResetDialog } from './use-password-reset-dialog';

/** spec 01 §2 "Password-reset dialog (two steps)" and §4 "Password reset". */
export function PasswordResetDialog() {
  const codeRef = useRef<HTMLInputElement>(null);
  const reset = usePasswordResetDialog(codeRef);
  const accountLabel = reset.userType === 'client' ? 'Client' : 'Node Operator';

  return (
    <Dialog
      open={reset.open}
      onClose={closeAuth}
      title="Reset Your Password"
      description={
        reset.step === 1
          ? `Enter the email of your ${accountLabel} account and we will send you a reset code.`
          : 'Enter the 6-digit code from your email and choose a new password.'
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
                Email
              </label>
              <input
                id="reset-email"
                className="input"
                type="email"
                autoComplete="email"
                placeholder="you@example.com"
                value={reset.email}
                disabled={reset.busy}
                onChange={(event) => reset.setEmail(event.target.value)}
              />
            </div>
            <Button type="submit" variant="primary" block disabled={reset.busy}>
              {reset.pending ? 'Sending...' : 'Send Reset Code'}
            </Button>
          </>
        ) : (
          <>
            <div className="field">
              <label className="field__label" htmlFor="reset-code">
                Reset Code
              </label>
              <input
                ref={codeRef}
                id="reset-code"
                className="input"
                type="text"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                placeholder="Enter 6-digit code"
                value={reset.code}
                disabled={reset.busy}
                onChange={(event) => reset.setCode(event.target.value.replace(/\D/g, ''))}
                data-autofocus
              />
            </div>
            <div className="field">
              <label className="field__label" htmlFor="reset-new-password">
                New Password
              </label>
              <input
                id="reset-new-password"
                className="input"
                type="password"
                autoComplete="new-password"
                placeholder="At least 8 characters"
                value={reset.newPassword}
                disabled={reset.busy}
                onChange={(event) => reset.setNewPassword(event.target.value)}
              />
            </div>
            <div className="field">
              <label className="field__label" htmlFor="reset-confirm-password">
                Confirm New Password
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
              {reset.pending ? 'Resetting...' : 'Reset Password'}
            </Button>
            <Button variant="ghost" block disabled={reset.busy} onClick={reset.backToRequest}>
              Back to Request Code
            </Button>
          </>
        )}
      </form>
      <p className="dialog__footer-text">
        Remembered it?{' '}
        <button type="button" className="link-button" onClick={() => backToSignIn(reset.email)}>
          Sign in Instead
        </button>
      </p>
    </Dialog>
  );
}
