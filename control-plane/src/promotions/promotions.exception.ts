import { formatSsl, PROMOTION_MESSAGES, PROMOTION_PLANS } from '@scn/proto';
import { DomainException, type ErrorKinds } from '../common/domain.exception';

export type PromotionsErrorCode =
  'server_not_found' | 'cost_mismatch' | 'cap_exceeded' | 'premium_server' | 'insufficient_balance';

const KINDS: ErrorKinds<PromotionsErrorCode> = {
  // Another operator's server is not found, like one that does not exist (no enumeration).
  server_not_found: 'not_found',
  // The modal showed another price than the server charges: reload, nothing was charged.
  cost_mismatch: 'conflict',
  cap_exceeded: 'conflict',
  premium_server: 'conflict',
  insufficient_balance: 'payment_required',
};

const MESSAGES: Record<PromotionsErrorCode, string> = {
  server_not_found: 'Server not found',
  cost_mismatch: PROMOTION_MESSAGES.costMismatch(PROMOTION_PLANS[0]),
  cap_exceeded: PROMOTION_MESSAGES.capExceeded(0n),
  premium_server: PROMOTION_MESSAGES.premiumServer,
  insufficient_balance: PROMOTION_MESSAGES.insufficientBalance,
};

/**
 * A refused promotion; the message is the contract's (PROMOTION_MESSAGES). Every body carries
 * `error`, the code (docs/product/calls.md#market-and-account-calls: the modal reads `insufficient_balance` from it).
 */
export class PromotionsException extends DomainException {
  static override readonly domain = 'promotions';
  static readonly kinds = KINDS;

  constructor(
    readonly code: PromotionsErrorCode,
    message: string = MESSAGES[code],
    details: Record<string, string> = {},
  ) {
    super(KINDS[code], message, undefined, { error: code, ...details });
  }

  /** 402: the node wallet's available balance (not frozen rewards) is below the plan's price. */
  static insufficient(requiredMicro: bigint, availableMicro: bigint): PromotionsException {
    return new PromotionsException('insufficient_balance', MESSAGES.insufficient_balance, {
      balance: formatSsl(availableMicro),
      required: formatSsl(requiredMicro),
      balanceMicro: availableMicro.toString(),
      requiredMicro: requiredMicro.toString(),
    });
  }

  /** 409: the plan would take the server past the cap. */
  static cap(paidMicro: bigint): PromotionsException {
    return new PromotionsException('cap_exceeded', PROMOTION_MESSAGES.capExceeded(paidMicro), {
      amountPaidMicro: paidMicro.toString(),
    });
  }
}
