/**
 * Every `code` of an API error body (docs/api.md "Error codes"): `<domain>.<code>` of a domain's
 * exception (`wallet.insufficient_balance`), or a generic `common.<kind>` of a failure no domain
 * names (a request that does not validate, an unknown path, an outage, a bug). Stable: a client
 * translates the message by its code (the portal's `errors` catalogue), never by its English.
 *
 * control-plane/test/e2e/error-statuses.e2e-spec.ts fails when a domain's `static kinds` table
 * and this list differ, and portal/src/lib/api-error-message.spec.ts when a code has no
 * translation, so a new code is added here, documented and translated together.
 */
export const API_ERROR_CODES = {
  auth: [
    'not_logged_in',
    'session_invalid',
    'access_denied',
    'clients_only',
    'nodes_only',
    'invalid_credentials',
    'invalid_code',
    'invalid_reset_code',
    'too_many_code_attempts',
    'account_exists',
    'terms_not_accepted',
  ],
  deposits: [
    'deposits_off',
    'chain_unavailable',
    'amount_too_small',
    'request_not_found',
    'request_expired',
    'not_your_account',
    'transaction_not_found',
    'wrong_recipient',
    'wrong_amount',
    'failed_transaction',
    'not_confirmed',
    'too_old',
    'already_credited',
    'credited_elsewhere',
    'ambiguous',
    'addresses_off',
    'wrong_wallet_type',
  ],
  downloads: ['agent_bundle_missing', 'client_apk_not_mirrored'],
  market: ['server_not_found', 'clients_only', 'server_unavailable'],
  nodes: [
    'not_a_node_account',
    'enrollment_token_invalid',
    'tier_mismatch',
    'hardware_below_tier',
    'node_unauthenticated',
    'node_mismatch',
    'server_not_found',
    'report_conflict',
    'vless_invalid',
    'manual_unsupported',
    'manual_limit',
    'manual_address_refused',
    'manual_unresolvable',
    'manual_check_failed',
    'not_an_agent_node',
    'transport_unsupported',
    'port_regeneration_too_soon',
    'plan_changed',
  ],
  promotions: [
    'server_not_found',
    'cost_mismatch',
    'cap_exceeded',
    'premium_server',
    'insufficient_balance',
  ],
  rewards: ['period_in_future'],
  social: [
    'time_zone_invalid',
    'url_not_platform',
    'already_shared',
    'post_already_claimed',
    'daily_cap_reached',
  ],
  staking: ['not_a_node_account', 'available_too_low', 'stake_locked'],
  subscriptions: [
    'not_found',
    'clients_only',
    'uuid_mismatch',
    'server_not_found',
    'server_unavailable',
    'server_full',
    'same_billing_cycle',
    'not_active',
    'not_paused',
    'pause_allowance_used',
    'activate_insufficient',
    'file_not_found',
    'no_servers_left',
  ],
  reachability: [
    'probe_token_invalid',
    'probe_credential_invalid',
    'probe_not_found',
    'server_not_subscribed',
    'server_not_found',
    'network_unknown',
  ],
  wallet: [
    'insufficient_balance',
    'wrong_wallet_type',
    'pay_through_subscription',
    'rewards_are_server_side',
    'idempotency_key_invalid',
    'idempotency_key_reused',
  ],
  withdrawals: [
    'withdrawals_suspended',
    'invalid_amount',
    'invalid_address',
    'reserved_address',
    'off_curve',
    'treasury_address',
    'below_minimum',
    'over_available',
    'daily_cap',
  ],
  /**
   * No domain's: one per kind of refusal (`common.invalid` for a request that does not validate,
   * with `field` when one field is at fault; `common.rate_limited` over a rate limit), plus a body
   * in an encoding the server does not read (415) and a failure of the server itself (500).
   */
  common: [
    'invalid',
    'unauthenticated',
    'forbidden',
    'not_found',
    'conflict',
    'payment_required',
    'gone',
    'unprocessable',
    'too_large',
    'rate_limited',
    'unavailable',
    'unsupported_encoding',
    'internal',
  ],
} as const;

type Codes = typeof API_ERROR_CODES;
export type ApiErrorDomain = keyof Codes;

/** One code of an error body, `<domain>.<code>`. */
export type ApiErrorCode = {
  [Domain in ApiErrorDomain]: `${Domain}.${Codes[Domain][number]}`;
}[ApiErrorDomain];

/** Every code of API_ERROR_CODES in its body form. */
export function apiErrorCodes(): ApiErrorCode[] {
  return Object.entries(API_ERROR_CODES).flatMap(([domain, codes]) =>
    codes.map((code) => `${domain}.${code}` as ApiErrorCode),
  );
}

export function isApiErrorCode(code: unknown): code is ApiErrorCode {
  if (typeof code !== 'string') return false;
  const [domain = '', name = '', ...rest] = code.split('.');
  const codes: readonly string[] | undefined = Object.hasOwn(API_ERROR_CODES, domain)
    ? API_ERROR_CODES[domain as ApiErrorDomain]
    : undefined;
  return rest.length === 0 && codes !== undefined && codes.includes(name);
}
