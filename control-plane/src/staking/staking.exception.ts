import { formatSsl, STAKING_MESSAGES } from '@scn/proto';
import { DomainException, type ErrorKind } from '../common/domain.exception';

export type StakingErrorCode = 'not_a_node_account' | 'available_too_low' | 'stake_locked';

const KINDS: Record<StakingErrorCode, ErrorKind> = {
  not_a_node_account: 'forbidden',
  // Like a wallet that cannot pay: the body says what is available and what was asked.
  available_too_low: 'payment_required',
  // The stake is there but its lock has not passed: the state forbids it now.
  stake_locked: 'conflict',
};

const DEFAULT_MESSAGES: Record<StakingErrorCode, string> = {
  not_a_node_account: STAKING_MESSAGES.nodeAccountsOnly,
  available_too_low: STAKING_MESSAGES.availableTooLow(0n, 0n),
  stake_locked: STAKING_MESSAGES.stakeLocked(0n, 0n, null),
};

/** A refused staking call; the message is the contract's (STAKING_MESSAGES). */
export class StakingException extends DomainException {
  static override readonly domain = 'staking';
  static readonly kinds = KINDS;

  constructor(
    readonly code: StakingErrorCode,
    message: string = DEFAULT_MESSAGES[code],
    details?: Record<string, string>,
  ) {
    super(KINDS[code], message, undefined, details);
  }

  /** 402: the node wallet's available balance (balance less frozen rewards) is short. */
  static availableTooLow(requiredMicro: bigint, availableMicro: bigint): StakingException {
    return new StakingException(
      'available_too_low',
      STAKING_MESSAGES.availableTooLow(requiredMicro, availableMicro),
      {
        available: formatSsl(availableMicro),
        required: formatSsl(requiredMicro),
        availableMicro: availableMicro.toString(),
        requiredMicro: requiredMicro.toString(),
      },
    );
  }

  /** 409: less of the stake is unlocked than asked; says when the next lock ends. */
  static locked(
    requiredMicro: bigint,
    unlockedMicro: bigint,
    nextUnlock: { amountMicro: bigint; unlocksAt: Date } | null,
  ): StakingException {
    const next = nextUnlock
      ? {
          amountMicro: nextUnlock.amountMicro.toString(),
          unlocksAt: nextUnlock.unlocksAt.toISOString(),
        }
      : null;
    return new StakingException(
      'stake_locked',
      STAKING_MESSAGES.stakeLocked(requiredMicro, unlockedMicro, next),
      {
        unlockedMicro: unlockedMicro.toString(),
        requiredMicro: requiredMicro.toString(),
        ...(next ? { nextUnlockAt: next.unlocksAt, nextUnlockMicro: next.amountMicro } : {}),
      },
    );
  }
}
