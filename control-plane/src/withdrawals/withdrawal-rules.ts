import { reservedAddressName } from '@scn/proto';
import { PublicKey } from '@solana/web3.js';

/**
 * The rules of a withdrawal that need no database (docs/product/input-rules.md#market-and-account-input): where it may go,
 * how much, and what a payout's state on chain means.
 */

const DAY_MS = 86_400_000;

/** The UTC day `now` is in: the daily cap counts the withdrawals made in it. */
export function utcDay(now: Date): { start: Date; end: Date } {
  const start = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
  return { start, end: new Date(start.getTime() + DAY_MS) };
}

export type DestinationProblem =
  'invalid_address' | 'reserved_address' | 'off_curve' | 'treasury_address';

/**
 * A destination must be a 32-byte base58 public key on the ed25519 curve and none of Solana's
 * own addresses (SOLANA_RESERVED_ADDRESSES: programs, sysvars and the incinerator, some of them
 * on the curve). An off-curve address (a program-derived address) has no private key, so SOL
 * sent there could only be moved by its program, never by the operator. The treasury itself is
 * refused too (the payout would pay itself while the ledger says the SSL left).
 */
export function destinationProblem(
  address: string,
  treasuryAddress: string,
): DestinationProblem | null {
  let key: PublicKey;
  try {
    key = new PublicKey(address);
  } catch {
    return 'invalid_address';
  }
  // The constructor takes any base58 up to 32 bytes (it pads shorter ones): insist on the text.
  if (key.toBase58() !== address) return 'invalid_address';
  // Before the curve: a program's id says what it is, which is clearer than "off the curve".
  if (reservedAddressName(address) !== null) return 'reserved_address';
  if (!PublicKey.isOnCurve(key.toBytes())) return 'off_curve';
  if (address === treasuryAddress) return 'treasury_address';
  return null;
}

export type AmountProblem = 'below_minimum' | 'over_available' | 'daily_cap';

export interface AmountLimits {
  /** The node wallet's balance minus its frozen rewards. */
  availableMicro: bigint;
  minimumMicro: bigint;
  dailyCapMicro: bigint;
  /** Today's withdrawals of the operator that did not fail. */
  usedTodayMicro: bigint;
}

/** What is left of today's cap (never negative: the cap may have been lowered since). */
export function leftTodayMicro(limits: Pick<AmountLimits, 'dailyCapMicro' | 'usedTodayMicro'>) {
  const left = limits.dailyCapMicro - limits.usedTodayMicro;
  return left > 0n ? left : 0n;
}

/** The first rule an amount breaks, in the order the operator can act on them; null: none. */
export function amountProblem(amountMicro: bigint, limits: AmountLimits): AmountProblem | null {
  if (amountMicro < limits.minimumMicro) return 'below_minimum';
  if (amountMicro > limits.availableMicro) return 'over_available';
  if (amountMicro > leftTodayMicro(limits)) return 'daily_cap';
  return null;
}

/** A signature's state as getSignatureStatuses answers it (null: the chain does not know it). */
export interface PayoutStatus {
  failed: boolean;
  /** Why it failed on chain (the transaction error, as JSON text). */
  error: string | null;
  confirmation: 'processed' | 'confirmed' | 'finalized' | null;
}

export type PayoutDecision =
  /** Landed and reached the commitment: done. */
  | { action: 'confirm' }
  /** Landed with an error (the fee was paid, no SOL moved), or can never land: reverse it. */
  | { action: 'fail'; reason: string }
  /** Landed, not yet at the commitment: ask again later, never resend. */
  | { action: 'wait' }
  /** Not seen and its blockhash still valid: send the same signed transaction again. */
  | { action: 'resend' };

const RANK = { processed: 0, confirmed: 1, finalized: 2 } as const;

/**
 * What to do with a sent payout, from its status and the finalized block height read BEFORE the
 * status: once the finalized chain is past the blockhash's last valid block height, a
 * transaction that is not in it can never be processed (its blockhash is too old for any later
 * block), so "not seen" then is final.
 */
export function payoutDecision(
  status: PayoutStatus | null,
  finalizedBlockHeight: number,
  lastValidBlockHeight: number,
  commitment: 'confirmed' | 'finalized',
): PayoutDecision {
  if (status) {
    // A result short of the commitment may still be rolled back with its fork, failure included.
    const reached = status.confirmation !== null && RANK[status.confirmation] >= RANK[commitment];
    if (!reached) return { action: 'wait' };
    if (status.failed)
      return { action: 'fail', reason: `The payout failed on chain: ${status.error ?? 'error'}` };
    return { action: 'confirm' };
  }
  if (finalizedBlockHeight > lastValidBlockHeight) {
    return {
      action: 'fail',
      reason: 'The payout expired before it reached the chain (its blockhash is too old)',
    };
  }
  return { action: 'resend' };
}
