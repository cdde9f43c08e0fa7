import { SOLANA_RESERVED_ADDRESSES } from '@scn/proto';
import * as web3 from '@solana/web3.js';
import { Keypair, PublicKey } from '@solana/web3.js';
import {
  amountProblem,
  destinationProblem,
  leftTodayMicro,
  payoutDecision,
  utcDay,
} from './withdrawal-rules';

const treasury = Keypair.generate().publicKey.toBase58();
const SSL = 1_000_000n;

describe('utcDay', () => {
  it('should span the UTC day of the instant, whatever its time', () => {
    expect(utcDay(new Date('2026-03-05T23:59:59.999Z'))).toEqual({
      start: new Date('2026-03-05T00:00:00Z'),
      end: new Date('2026-03-06T00:00:00Z'),
    });
    expect(utcDay(new Date('2026-03-06T00:00:00Z')).start).toEqual(
      new Date('2026-03-06T00:00:00Z'),
    );
  });
});

describe('destinationProblem', () => {
  it('should accept the public key of a wallet', () => {
    expect(destinationProblem(Keypair.generate().publicKey.toBase58(), treasury)).toBeNull();
  });

  it('should refuse a program-derived address: it is off the curve, no one holds its key', () => {
    const [pda] = PublicKey.findProgramAddressSync(
      [Buffer.from('vault')],
      new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'),
    );
    expect(destinationProblem(pda.toBase58(), treasury)).toBe('off_curve');
  });

  it('should refuse text that is not 32 bytes of base58', () => {
    for (const bad of [
      '',
      'abc',
      // 0, O, I and l are not base58.
      '0OIl' + treasury.slice(4),
      // Decodes to more than 32 bytes.
      'z'.repeat(44),
      // Decodes to fewer than 32 bytes (the constructor would pad it).
      '1111111111111111111111111111112',
    ])
      expect(destinationProblem(bad, treasury)).toBe('invalid_address');
  });

  it("should refuse the treasury's own address", () => {
    expect(destinationProblem(treasury, treasury)).toBe('treasury_address');
  });

  it("should refuse every one of Solana's own addresses, on the curve or off it", () => {
    const reserved = Object.keys(SOLANA_RESERVED_ADDRESSES);
    // Both kinds are in the list: the curve check alone would let the first through.
    const onCurve = reserved.filter((a) => PublicKey.isOnCurve(new PublicKey(a).toBytes()));
    expect(onCurve).toEqual(
      expect.arrayContaining([
        '11111111111111111111111111111111',
        'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
        'SysvarRent111111111111111111111111111111111',
      ]),
    );
    expect(onCurve.length).toBeLessThan(reserved.length);
    for (const address of reserved) {
      // A canonical 32-byte key, or the check would never see it as typed.
      expect(new PublicKey(address).toBase58()).toBe(address);
      expect(destinationProblem(address, treasury)).toBe('reserved_address');
    }
  });

  it('should hold every program id and sysvar @solana/web3.js names', () => {
    const named: PublicKey[] = [
      web3.SystemProgram.programId,
      web3.StakeProgram.programId,
      web3.VoteProgram.programId,
      web3.ComputeBudgetProgram.programId,
      web3.AddressLookupTableProgram.programId,
      web3.Ed25519Program.programId,
      web3.Secp256k1Program.programId,
      ...Object.entries(web3)
        .filter(([name]) => /^SYSVAR_|_PROGRAM_ID$|^STAKE_CONFIG_ID$/.test(name))
        .map(([, key]) => key as PublicKey),
    ];
    expect(named.length).toBeGreaterThan(15);
    for (const key of named) expect(SOLANA_RESERVED_ADDRESSES).toHaveProperty([key.toBase58()]);
  });
});

describe('amountProblem', () => {
  const limits = {
    availableMicro: 1_000n * SSL,
    minimumMicro: 100n * SSL,
    dailyCapMicro: 1_500n * SSL,
    usedTodayMicro: 0n,
  };

  it('should accept from the minimum up to what is available', () => {
    expect(amountProblem(100n * SSL, limits)).toBeNull();
    expect(amountProblem(1_000n * SSL, limits)).toBeNull();
  });

  it('should refuse under the minimum, even by a micro-SSL', () => {
    expect(amountProblem(100n * SSL - 1n, limits)).toBe('below_minimum');
  });

  it('should refuse more than the balance minus frozen rewards', () => {
    expect(amountProblem(1_000n * SSL + 1n, limits)).toBe('over_available');
  });

  it("should refuse what would take today's withdrawals past the cap", () => {
    const used = { ...limits, usedTodayMicro: 1_200n * SSL };
    expect(amountProblem(300n * SSL, used)).toBeNull();
    expect(amountProblem(300n * SSL + 1n, used)).toBe('daily_cap');
    expect(leftTodayMicro(used)).toBe(300n * SSL);
  });

  it('should leave nothing (not less) when the cap was lowered under what was used', () => {
    expect(leftTodayMicro({ dailyCapMicro: 100n, usedTodayMicro: 250n })).toBe(0n);
  });
});

describe('payoutDecision', () => {
  const ok = (confirmation: 'processed' | 'confirmed' | 'finalized') => ({
    failed: false,
    error: null,
    confirmation,
  });

  it('should confirm once the payout reached the commitment, and wait before', () => {
    expect(payoutDecision(ok('confirmed'), 0, 100, 'confirmed')).toEqual({ action: 'confirm' });
    expect(payoutDecision(ok('finalized'), 0, 100, 'confirmed')).toEqual({ action: 'confirm' });
    expect(payoutDecision(ok('processed'), 0, 100, 'confirmed')).toEqual({ action: 'wait' });
    expect(payoutDecision(ok('confirmed'), 0, 100, 'finalized')).toEqual({ action: 'wait' });
  });

  it('should never resend a payout the chain has seen, even past its blockhash', () => {
    expect(payoutDecision(ok('processed'), 500, 100, 'confirmed')).toEqual({ action: 'wait' });
  });

  it('should fail a payout that landed with an error, once that is at the commitment', () => {
    const failed = { failed: true, error: '{"InstructionError":[0,"Custom"]}', confirmation: null };
    expect(payoutDecision({ ...failed, confirmation: 'processed' }, 0, 100, 'confirmed')).toEqual({
      action: 'wait',
    });
    expect(payoutDecision({ ...failed, confirmation: 'confirmed' }, 0, 100, 'confirmed')).toEqual({
      action: 'fail',
      reason: 'The payout failed on chain: {"InstructionError":[0,"Custom"]}',
    });
  });

  it('should resend an unseen payout until the finalized chain passes its last valid block', () => {
    expect(payoutDecision(null, 99, 100, 'confirmed')).toEqual({ action: 'resend' });
    // At exactly the last valid height a block may still take it.
    expect(payoutDecision(null, 100, 100, 'confirmed')).toEqual({ action: 'resend' });
    expect(payoutDecision(null, 101, 100, 'finalized')).toMatchObject({ action: 'fail' });
  });
});
