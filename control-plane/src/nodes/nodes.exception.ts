import { UPLOAD_SERVER_MESSAGES } from '@scn/proto';
import { DomainException, type ErrorKind, kindsOf } from '../common/domain.exception';

export type NodesErrorCode =
  | 'not_a_node_account'
  | 'enrollment_token_invalid'
  | 'tier_mismatch'
  | 'hardware_below_tier'
  | 'node_unauthenticated'
  | 'node_mismatch'
  | 'server_not_found'
  | 'report_conflict'
  | 'vless_invalid';

const ERRORS: Record<NodesErrorCode, { kind: ErrorKind; message: string }> = {
  not_a_node_account: { kind: 'forbidden', message: 'Only node operator accounts can add servers' },
  enrollment_token_invalid: {
    kind: 'unauthenticated',
    message: 'Enrollment token is invalid, expired or already used. Generate a new setup script.',
  },
  tier_mismatch: {
    kind: 'invalid',
    message: 'The tier does not match the tier chosen in the setup wizard',
  },
  hardware_below_tier: { kind: 'invalid', message: 'This machine does not meet the chosen tier' },
  node_unauthenticated: {
    kind: 'unauthenticated',
    message: 'Unknown node or wrong node credential',
  },
  node_mismatch: { kind: 'forbidden', message: 'A node can only report for itself' },
  server_not_found: { kind: 'not_found', message: 'Server not found' },
  report_conflict: {
    kind: 'unavailable',
    message: 'The server kept changing while the report was written; send it again',
  },
  vless_invalid: { kind: 'invalid', message: UPLOAD_SERVER_MESSAGES.vlessInvalid },
};

export class NodesException extends DomainException {
  static readonly kinds = kindsOf(ERRORS);

  constructor(readonly code: NodesErrorCode) {
    const { kind, message } = ERRORS[code];
    super(kind, message);
  }
}
