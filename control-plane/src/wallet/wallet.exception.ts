import { WALLET_MESSAGES, formatSsl } from '@scn/proto';
import { DomainException, type ErrorKind } from '../common/domain.exception';

export type WalletErrorCode =
  | 'insufficient_balance'
  | 'wrong_wallet_type'
  | 'withdrawals_suspended'
  | 'pay_through_subscription'
  | 'rewards_are_server_side'
  | 'idempotency_key_invalid'
  | 'idempotency_key_reused';

const ERRORS: Record<
  Exclude<WalletErrorCode, 'insufficient_balance'>,
  { kind: ErrorKind; message: string }
> = {
  wrong_wallet_type: {
    kind: 'forbidden',
    message: 'This wallet type does not belong to your account type',
  },
  withdrawals_suspended: { kind: 'forbidden', message: WALLET_MESSAGES.withdrawalsSuspended },
  pay_through_subscription: { kind: 'gone', message: WALLET_MESSAGES.payThroughSubscription },
  rewards_are_server_side: { kind: 'forbidden', message: WALLET_MESSAGES.rewardsAreServerSide },
  idempotency_key_invalid: {
    kind: 'invalid',
    message: 'Idempotency-Key must be 1-128 characters of letters, digits, "-", "_", ":" or "."',
  },
  idempotency_key_reused: {
    kind: 'unprocessable',
    message: 'This Idempotency-Key was already used for a different request',
  },
};

export class WalletException extends DomainException {
  constructor(
    readonly code: WalletErrorCode,
    /** For insufficient_balance: what the wallet holds and what was needed (micro-SSL). */
    readonly shortfall?: { balanceMicro: bigint; requiredMicro: bigint },
  ) {
    if (code === 'insufficient_balance') {
      const { balanceMicro, requiredMicro } = shortfall ?? { balanceMicro: 0n, requiredMicro: 0n };
      // spec 02 §8: a 402 says the balance and what was required.
      super(
        'payment_required',
        WALLET_MESSAGES.insufficientBalance(formatSsl(requiredMicro), formatSsl(balanceMicro)),
        undefined,
        {
          balance: formatSsl(balanceMicro),
          required: formatSsl(requiredMicro),
          balanceMicro: balanceMicro.toString(),
          requiredMicro: requiredMicro.toString(),
        },
      );
    } else {
      const { kind, message } = ERRORS[code];
      super(kind, message);
    }
  }
}
