import { ECONOMICS, MICRO_PER_SSL } from '@scn/proto';
import { stakeUnlocksAt } from '../rewards/reward-rules';
import { halvingFrom, stakeLockView, stakePostings, unstakePostings } from './staking-rules';

const ssl = (n: number) => BigInt(n) * MICRO_PER_SSL;
const at = (iso: string) => new Date(iso);
const OWNER = '11111111-1111-4111-8111-111111111111';

describe('stakePostings and unstakePostings', () => {
  it('should move a stake from the node wallet, locked for the lock days', () => {
    const now = at('2026-03-01T12:00:00Z');
    expect(stakePostings(OWNER, ssl(5), now)).toEqual([
      { account: { wallet: 'node_wallet', ownerUuid: OWNER }, amountMicro: -ssl(5) },
      {
        account: { wallet: 'stake', ownerUuid: OWNER },
        amountMicro: ssl(5),
        frozenUntil: at('2026-03-31T12:00:00Z'),
      },
    ]);
    expect(stakeUnlocksAt(now).getTime() - now.getTime()).toBe(
      ECONOMICS.stakeLockDays * 86_400_000,
    );
  });

  it('should move an unstake back to the node wallet, without a lock', () => {
    expect(unstakePostings(OWNER, 7n)).toEqual([
      { account: { wallet: 'stake', ownerUuid: OWNER }, amountMicro: -7n },
      { account: { wallet: 'node_wallet', ownerUuid: OWNER }, amountMicro: 7n },
    ]);
  });

  it('should refuse a move of nothing', () => {
    expect(() => stakePostings(OWNER, 0n, new Date())).toThrow(RangeError);
    expect(() => unstakePostings(OWNER, -1n)).toThrow(RangeError);
  });
});

describe('stakeLockView', () => {
  const lock = (n: number, iso: string) => ({ amountMicro: ssl(n), unlocksAt: at(iso) });

  it('should call unlocked what the locks do not hold, listing the locks oldest first', () => {
    const view = stakeLockView(ssl(20), [
      lock(7, '2026-04-10T00:00:00Z'),
      lock(5, '2026-04-01T00:00:00Z'),
    ]);
    expect(view).toEqual({
      unlockedMicro: ssl(8),
      lockedMicro: ssl(12),
      locks: [lock(5, '2026-04-01T00:00:00Z'), lock(7, '2026-04-10T00:00:00Z')],
    });
  });

  it('should show a fully locked stake and an empty one', () => {
    expect(stakeLockView(ssl(5), [lock(5, '2026-04-01T00:00:00Z')]).unlockedMicro).toBe(0n);
    expect(stakeLockView(0n, [])).toEqual({ unlockedMicro: 0n, lockedMicro: 0n, locks: [] });
  });

  it('should shrink the oldest locks first when the stake holds less than its locks (FIFO)', () => {
    const view = stakeLockView(ssl(6), [
      lock(5, '2026-04-01T00:00:00Z'),
      lock(4, '2026-04-10T00:00:00Z'),
    ]);
    expect(view).toEqual({
      unlockedMicro: 0n,
      lockedMicro: ssl(6),
      locks: [lock(2, '2026-04-01T00:00:00Z'), lock(4, '2026-04-10T00:00:00Z')],
    });
    expect(
      stakeLockView(ssl(3), [lock(5, '2026-04-01T00:00:00Z'), lock(4, '2026-04-10T00:00:00Z')])
        .locks,
    ).toEqual([lock(3, '2026-04-10T00:00:00Z')]);
  });
});

describe('halvingFrom', () => {
  it('should be the start of year 5, or 4 years of the hardware when that comes first', () => {
    const enrolled = at('2026-01-10T00:00:00Z');
    expect(halvingFrom(enrolled, null)).toEqual(at('2030-01-10T00:00:00Z'));
    expect(halvingFrom(enrolled, at('2026-02-01T00:00:00Z'))).toEqual(at('2030-01-10T00:00:00Z'));
    // Hardware older than the node (reported at enrollment, the same day): the same instant.
    expect(halvingFrom(enrolled, enrolled)).toEqual(at('2030-01-10T00:00:00Z'));
    expect(halvingFrom(enrolled, at('2025-06-01T00:00:00Z'))).toEqual(at('2029-06-01T00:00:00Z'));
  });
});
