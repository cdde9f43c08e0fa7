import { REACHABILITY_MESSAGES } from '@scn/proto';
import { DomainException, type ErrorKind, kindsOf } from '../common/domain.exception';

export type ReachabilityErrorCode =
  | 'probe_token_invalid'
  | 'probe_credential_invalid'
  | 'probe_not_found'
  | 'server_not_subscribed'
  | 'server_not_found'
  | 'network_unknown';

const ERRORS: Record<ReachabilityErrorCode, { kind: ErrorKind; message: string }> = {
  probe_token_invalid: {
    kind: 'unauthenticated',
    message: 'Invalid, used or expired vantage point enrollment token',
  },
  probe_credential_invalid: {
    kind: 'unauthenticated',
    message: 'Unknown vantage point or wrong secret',
  },
  probe_not_found: { kind: 'not_found', message: REACHABILITY_MESSAGES.probeNotFound },
  server_not_subscribed: { kind: 'forbidden', message: REACHABILITY_MESSAGES.serverNotSubscribed },
  server_not_found: { kind: 'not_found', message: 'Server not found' },
  network_unknown: {
    kind: 'unprocessable',
    message: 'Your address is not in our network database, so a report from it cannot be placed',
  },
};

export class ReachabilityException extends DomainException {
  static override readonly domain = 'reachability';
  static readonly kinds = kindsOf(ERRORS);

  constructor(readonly code: ReachabilityErrorCode) {
    const { kind, message } = ERRORS[code];
    super(kind, message);
  }
}
