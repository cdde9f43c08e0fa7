import type { AuthResponse } from '@scn/proto';
import { AccountTypeChooser } from './account-type-chooser';
import { AuthDialog } from './auth-dialog';
import { PasswordResetDialog } from './password-reset-dialog';

export interface AuthFlowProps {
  /** Called after a successful login or registration (the app hands it to the session). */
  onAuthenticated: (result: AuthResponse) => void;
}

/**
 * Every auth surface of the shell: the account-type chooser, the auth dialog (with its terms
 * dialog) and the password-reset dialog. Open them from anywhere with openAuth() (store.ts).
 */
export function AuthFlow({ onAuthenticated }: AuthFlowProps) {
  return (
    <>
      <AccountTypeChooser />
      <AuthDialog onAuthenticated={onAuthenticated} />
      <PasswordResetDialog />
    </>
  );
}
