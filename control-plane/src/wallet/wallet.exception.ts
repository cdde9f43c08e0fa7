import { WALLET_MESSAGES, formatSsl } from '@scn/proto';
import { DomainException, type ErrorKinds } from '../common/domain.exception';

export type WalletErrorCode =
  | 'insufficient_balance'
  | 'wrong_wallet_type'
  | 'pay_through_subscription'
  | 'rewards_are_server_side'
  | 'idempotency_key_invalid'
  | 'idempotency_key_reused';

const KINDS: ErrorKinds<WalletErrorCode> = {
  insufficient_balance: 'payment_required',
  wrong_wallet_type: 'forbidden',
  pay_through_subscription: 'gone',
  rewards_are_server_side: 'forbidden',
  idempotency_key_invalid: 'invalid',
  idempotency_key_reused: 'unprocessable',
};

const MESSAGES: Record<Exclude<WalletErrorCode, 'insufficient_balance'>, string> = {
  wrong_wallet_type: 'This wallet type does not belong to your account type',
  pay_through_subscription: WALLET_MESSAGES.payThroughSubscription,
  rewards_are_server_side: WALLET_MESSAGES.rewardsAreServerSide,
  idempotency_key_invalid:
    'Idempotency-Key must be 1-128 characters of letters, digits, "-", "_", ":" or "."',
  idempotency_key_reused: 'This Idempotency-Key was already used for a different request',
};

/** What the wallet holds and what was needed (micro-SSL), for insufficient_balance. */
export interface Shortfall {
  balanceMicro: bigint;
  requiredMicro: bigint;
}

/** The message and body fields of a code: computed before the one super() call (see below). */
function describe(
  code: WalletErrorCode,
  shortfall: Shortfall | undefined,
): [message: string, details: Record<string, string> | undefined] {
  if (code !== 'insufficient_balance') return [MESSAGES[code], undefined];
  const { balanceMicro, requiredMicro } = shortfall ?? { balanceMicro: 0n, requiredMicro: 0n };
  // docs/product/messages.md#dashboard-messages: a 402 says the balance and what was required.
  return [
    WALLET_MESSAGES.insufficientBalance(formatSsl(requiredMicro), formatSsl(balanceMicro)),
    {
      balance: formatSsl(balanceMicro),
      required: formatSsl(requiredMicro),
      balanceMicro: balanceMicro.toString(),
      requiredMicro: requiredMicro.toString(),
    },
  ];
}

export class WalletException extends DomainException {
  static override readonly domain = 'wallet';
  static readonly kinds = KINDS;

  /**
   * One unconditional super() first: with a super() in each branch of an if, tsc assigned the
   * parameter properties before it and every wallet refusal threw a ReferenceError, a 500 from
   * the built server, while the swc-compiled tests passed.
   */
  constructor(
    readonly code: WalletErrorCode,
    readonly shortfall?: Shortfall,
  ) {
    const [message, details] = describe(code, shortfall);
    super(KINDS[code], message, undefined, details);
  }
}
