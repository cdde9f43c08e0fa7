import { INBOUND_PLAN_MESSAGES, UPLOAD_SERVER_MESSAGES } from '@scn/proto';
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
  | 'vless_invalid'
  | 'manual_unsupported'
  | 'manual_limit'
  | 'manual_address_refused'
  | 'manual_unresolvable'
  | 'manual_check_failed'
  | 'not_an_agent_node'
  | 'transport_unsupported'
  | 'port_regeneration_too_soon'
  | 'plan_changed';

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
  manual_unsupported: { kind: 'unprocessable', message: UPLOAD_SERVER_MESSAGES.unsupported },
  // The messages below carry the limit, the address or the check's outcome (see the factories).
  manual_limit: { kind: 'conflict', message: UPLOAD_SERVER_MESSAGES.limit(0) },
  manual_address_refused: { kind: 'unprocessable', message: 'This address cannot be added' },
  manual_unresolvable: { kind: 'unprocessable', message: UPLOAD_SERVER_MESSAGES.unresolvable('') },
  manual_check_failed: {
    kind: 'unprocessable',
    message: 'The server did not pass the VLESS check',
  },
  not_an_agent_node: { kind: 'unprocessable', message: INBOUND_PLAN_MESSAGES.notAnAgentNode },
  // The messages below carry the transport and core, or the wait (see the service).
  transport_unsupported: {
    kind: 'unprocessable',
    message: INBOUND_PLAN_MESSAGES.transportUnsupported('', ''),
  },
  plan_changed: {
    kind: 'conflict',
    message: "The server's port or transport changed meanwhile; reload and try again",
  },
  port_regeneration_too_soon: {
    kind: 'rate_limited',
    message: INBOUND_PLAN_MESSAGES.regenerationTooSoon(0),
  },
};

export class NodesException extends DomainException {
  static override readonly domain = 'nodes';
  static readonly kinds = kindsOf(ERRORS);
  readonly code: NodesErrorCode;

  /**
   * `message` replaces the code's fixed message where the spec's text carries values;
   * `retryAfterSeconds` answers a rate limit's Retry-After.
   */
  constructor(code: NodesErrorCode, message?: string, retryAfterSeconds?: number) {
    const error = ERRORS[code];
    super(error.kind, message ?? error.message, retryAfterSeconds);
    this.code = code;
  }
}
