import type { DepositsErrorCode } from './deposits.exception';
import type { ChainTransaction, Confirmation } from './solana-chain';

/**
 * How far a transaction's blockTime may lie before its request was made: block times are the
 * validators' clocks (stake-weighted), and may run behind ours by some seconds.
 */
export const CLOCK_SKEW_MS = 60_000;
/**
 * A transfer of the exact amount that lands shortly after its quote expired (a slow wallet, a
 * congested network) is still credited at the quoted rate: the payer acted on the quote.
 */
export const QUOTE_GRACE_MS = 5 * 60_000;

const RANK: Record<Confirmation, number> = { processed: 0, confirmed: 1, finalized: 2 };

export interface TransferExpectation {
  depositAddress: string;
  lamports: bigint;
  commitment: 'confirmed' | 'finalized';
  /** The request's creation and expiry. */
  createdAt: Date;
  expiresAt: Date;
  /** Required when set: the request's reference (Solana Pay). */
  reference?: string;
  /** Required when set: the sender (the spec's path without a reference). */
  sender?: string;
}

export type TransferCheck = { ok: true; sender: string } | { ok: false; code: DepositsErrorCode };

/** Whether a status is at or beyond the configured commitment. */
export function reached(status: Confirmation | null, commitment: Confirmation): boolean {
  return status !== null && RANK[status] >= RANK[commitment];
}

/**
 * A transaction pays a deposit request when it succeeded, reached the configured
 * commitment, its System Program transfers to the deposit address sum to exactly the requested
 * lamports, it carries the reference (or comes from the named sender), and it is not older than
 * the request nor later than its quote and the grace.
 */
export function checkTransfer(tx: ChainTransaction, expect: TransferExpectation): TransferCheck {
  if (tx.failed) return { ok: false, code: 'failed_transaction' };
  if (!reached(tx.confirmation, expect.commitment)) return { ok: false, code: 'not_confirmed' };
  const paid = tx.transfers.filter((t) => t.destination === expect.depositAddress);
  if (paid.length === 0) return { ok: false, code: 'wrong_recipient' };
  const total = paid.reduce((sum, t) => sum + t.lamports, 0n);
  if (total !== expect.lamports) return { ok: false, code: 'wrong_amount' };
  const sender = paid[0]!.source;
  if (expect.reference !== undefined && !tx.accountKeys.includes(expect.reference)) {
    return { ok: false, code: 'transaction_not_found' };
  }
  if (
    expect.sender !== undefined &&
    !paid.every((t) => t.source === expect.sender) &&
    tx.feePayer !== expect.sender
  ) {
    return { ok: false, code: 'transaction_not_found' };
  }
  if (tx.blockTime) {
    if (tx.blockTime.getTime() < expect.createdAt.getTime() - CLOCK_SKEW_MS) {
      return { ok: false, code: 'too_old' };
    }
    if (tx.blockTime.getTime() > expect.expiresAt.getTime() + QUOTE_GRACE_MS) {
      return { ok: false, code: 'request_expired' };
    }
  }
  return { ok: true, sender };
}
