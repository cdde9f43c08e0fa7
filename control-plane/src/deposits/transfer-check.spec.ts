import { Keypair } from '@solana/web3.js';
import type { ChainTransaction } from './solana-chain';
import {
  checkTransfer,
  CLOCK_SKEW_MS,
  QUOTE_GRACE_MS,
  reached,
  type TransferExpectation,
} from './transfer-check';

const key = () => Keypair.generate().publicKey.toBase58();
const treasury = key();
const payer = key();
const reference = key();
const created = new Date('2026-01-01T12:00:00Z');

const expectation: TransferExpectation = {
  depositAddress: treasury,
  lamports: 1_500_000_000n,
  commitment: 'finalized',
  createdAt: created,
  expiresAt: new Date(created.getTime() + 30 * 60_000),
  reference,
};

/** A fake chain answer: a finalized, successful transfer of 1.5 SOL with the reference. */
function tx(overrides: Partial<ChainTransaction> = {}): ChainTransaction {
  return {
    signature: '5'.repeat(88),
    blockTime: new Date(created.getTime() + 10_000),
    failed: false,
    confirmation: 'finalized',
    feePayer: payer,
    accountKeys: [payer, treasury, '11111111111111111111111111111111', reference],
    transfers: [{ source: payer, destination: treasury, lamports: 1_500_000_000n }],
    ...overrides,
  };
}

describe('checkTransfer', () => {
  it('should accept a successful transfer of the exact amount with the reference', () => {
    expect(checkTransfer(tx(), expectation)).toEqual({ ok: true, sender: payer });
  });

  it('should accept the exact amount split into several transfers to the deposit address', () => {
    const split = tx({
      transfers: [
        { source: payer, destination: treasury, lamports: 1_000_000_000n },
        { source: payer, destination: key(), lamports: 7n },
        { source: payer, destination: treasury, lamports: 500_000_000n },
      ],
    });
    expect(checkTransfer(split, expectation)).toEqual({ ok: true, sender: payer });
  });

  it.each<[string, Partial<ChainTransaction>, string]>([
    ['a failed transaction', { failed: true }, 'failed_transaction'],
    ['a transaction only confirmed', { confirmation: 'confirmed' }, 'not_confirmed'],
    ['a transaction with no status', { confirmation: null }, 'not_confirmed'],
    [
      'a transfer to another address',
      { transfers: [{ source: payer, destination: key(), lamports: 1_500_000_000n }] },
      'wrong_recipient',
    ],
    [
      'one lamport less',
      { transfers: [{ source: payer, destination: treasury, lamports: 1_499_999_999n }] },
      'wrong_amount',
    ],
    [
      'one lamport more',
      { transfers: [{ source: payer, destination: treasury, lamports: 1_500_000_001n }] },
      'wrong_amount',
    ],
    ['no reference', { accountKeys: [payer, treasury] }, 'transaction_not_found'],
    [
      'a transfer older than the request (beyond the clock skew)',
      { blockTime: new Date(created.getTime() - CLOCK_SKEW_MS - 1000) },
      'too_old',
    ],
    [
      'a transfer after the quote and the grace',
      { blockTime: new Date(expectation.expiresAt.getTime() + QUOTE_GRACE_MS + 1000) },
      'request_expired',
    ],
  ])('should refuse %s', (_, overrides, code) => {
    expect(checkTransfer(tx(overrides), expectation)).toEqual({ ok: false, code });
  });

  it('should accept a block time within the clock skew before the request, and within the grace', () => {
    const early = tx({ blockTime: new Date(created.getTime() - CLOCK_SKEW_MS + 1000) });
    const late = tx({
      blockTime: new Date(expectation.expiresAt.getTime() + QUOTE_GRACE_MS - 1000),
    });
    expect(checkTransfer(early, expectation).ok).toBe(true);
    expect(checkTransfer(late, expectation).ok).toBe(true);
  });

  it('should take a transfer without a reference only from the named sender', () => {
    const { reference: _, ...bySender } = expectation;
    const plain = tx({ accountKeys: [payer, treasury] });
    expect(checkTransfer(plain, { ...bySender, sender: payer })).toEqual({
      ok: true,
      sender: payer,
    });
    expect(checkTransfer(plain, { ...bySender, sender: key() })).toEqual({
      ok: false,
      code: 'transaction_not_found',
    });
  });

  it('should accept confirmed when the configured commitment is confirmed', () => {
    expect(
      checkTransfer(tx({ confirmation: 'confirmed' }), { ...expectation, commitment: 'confirmed' }),
    ).toEqual({ ok: true, sender: payer });
    expect(reached('processed', 'confirmed')).toBe(false);
    expect(reached('finalized', 'confirmed')).toBe(true);
  });
});
