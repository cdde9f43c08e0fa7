import { AUTH_MESSAGES } from '@scn/proto';
import { DomainException, type ErrorKind, kindsOf } from '../common/domain.exception';

export type AuthErrorCode =
  | 'not_logged_in'
  | 'session_invalid'
  | 'access_denied'
  | 'clients_only'
  | 'nodes_only'
  | 'invalid_credentials'
  | 'invalid_code'
  | 'invalid_reset_code'
  | 'too_many_code_attempts'
  | 'account_exists'
  | 'terms_not_accepted';

const ERRORS: Record<AuthErrorCode, { kind: ErrorKind; message: string }> = {
  not_logged_in: { kind: 'unauthenticated', message: AUTH_MESSAGES.notLoggedIn },
  session_invalid: { kind: 'unauthenticated', message: AUTH_MESSAGES.sessionInvalid },
  access_denied: { kind: 'forbidden', message: AUTH_MESSAGES.accessDenied },
  clients_only: { kind: 'forbidden', message: AUTH_MESSAGES.clientsOnly },
  nodes_only: { kind: 'forbidden', message: AUTH_MESSAGES.nodesOnly },
  invalid_credentials: { kind: 'unauthenticated', message: AUTH_MESSAGES.invalidCredentials },
  invalid_code: { kind: 'invalid', message: AUTH_MESSAGES.invalidCode },
  invalid_reset_code: { kind: 'invalid', message: AUTH_MESSAGES.invalidResetCode },
  too_many_code_attempts: { kind: 'rate_limited', message: AUTH_MESSAGES.tooManyCodeAttempts },
  account_exists: { kind: 'conflict', message: AUTH_MESSAGES.accountExists },
  terms_not_accepted: { kind: 'invalid', message: AUTH_MESSAGES.termsMustBeAccepted },
};

export class AuthException extends DomainException {
  static override readonly domain = 'auth';
  static readonly kinds = kindsOf(ERRORS);

  constructor(readonly code: AuthErrorCode) {
    const { kind, message } = ERRORS[code];
    super(kind, message);
  }
}
