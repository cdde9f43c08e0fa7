import { MICRO_PER_SSL } from '@scn/proto';
import {
  escrowForfeit,
  escrowRelease,
  rewardFrozenUntil,
  rewardRef,
  stakingIncomeRef,
  stakingPayout,
  statementPayout,
} from './reward-payouts';

const ssl = (value: number) => BigInt(value) * MICRO_PER_SSL;
const now = new Date('2026-11-01T01:00:00Z');
const SERVER = '11111111-1111-4111-8111-111111111111';
const OWNER = '22222222-2222-4222-8222-222222222222';
const sum = (request: { postings: readonly { amountMicro: bigint }[] }) =>
  request.postings.reduce((total, p) => total + p.amountMicro, 0n);

describe('reward payouts', () => {
  it('should pay a statement out of the pool to the wallet (frozen 60 days), the stake and the escrow', () => {
    const request = statementPayout(
      {
        serverId: SERVER,
        ownerUuid: OWNER,
        walletMicro: ssl(750),
        autoStakedMicro: ssl(250),
        escrowedMicro: 3n,
      },
      '2026-10',
      now,
    )!;
    expect(request).toMatchObject({
      type: 'monthly_reward',
      externalRef: `reward:${SERVER}:2026-10`,
      describedAs: { code: 'monthly_reward', values: { period: '2026-10' } },
    });
    expect(request.postings).toEqual([
      { account: { system: 'reward_pool' }, amountMicro: -(ssl(1000) + 3n) },
      {
        account: { wallet: 'node_wallet', ownerUuid: OWNER },
        amountMicro: ssl(750),
        frozenUntil: new Date('2026-12-31T01:00:00Z'),
      },
      // Locked like any stake: 30 days from the payout.
      {
        account: { wallet: 'stake', ownerUuid: OWNER },
        amountMicro: ssl(250),
        frozenUntil: new Date('2026-12-01T01:00:00Z'),
      },
      { account: { wallet: 'reward_escrow', ownerUuid: SERVER }, amountMicro: 3n },
    ]);
    expect(sum(request)).toBe(0n);
  });

  it('should leave zero postings out, and move nothing for a statement that pays nothing', () => {
    const escrowOnly = statementPayout(
      {
        serverId: SERVER,
        ownerUuid: OWNER,
        walletMicro: 0n,
        autoStakedMicro: 0n,
        escrowedMicro: ssl(5),
      },
      '2026-10',
      now,
    )!;
    expect(escrowOnly.postings.map((p) => p.account)).toEqual([
      { system: 'reward_pool' },
      { wallet: 'reward_escrow', ownerUuid: SERVER },
    ]);
    expect(
      statementPayout(
        {
          serverId: SERVER,
          ownerUuid: OWNER,
          walletMicro: 0n,
          autoStakedMicro: 0n,
          escrowedMicro: 0n,
        },
        '2026-10',
        now,
      ),
    ).toBeNull();
  });

  it('should pay staking income to the wallet once per operator and period', () => {
    const request = stakingPayout({ ownerUuid: OWNER, paidMicro: ssl(10) }, '2026-10', now)!;
    expect(request).toMatchObject({
      type: 'staking_reward',
      externalRef: stakingIncomeRef(OWNER, '2026-10'),
      describedAs: { code: 'staking_income', values: { period: '2026-10' } },
    });
    expect(sum(request)).toBe(0n);
    expect(stakingPayout({ ownerUuid: OWNER, paidMicro: 0n }, '2026-10', now)).toBeNull();
  });

  it("should release an escrow to the server's operator, or give it back to the pool", () => {
    const release = escrowRelease(
      { serverId: SERVER, operatorUuid: OWNER, balanceMicro: ssl(3) },
      now,
    );
    expect(release.type).toBe('reward_release');
    expect(release.describedAs).toEqual({ code: 'rewards_released', values: {} });
    expect(release.postings).toEqual([
      { account: { wallet: 'reward_escrow', ownerUuid: SERVER }, amountMicro: -ssl(3) },
      {
        account: { wallet: 'node_wallet', ownerUuid: OWNER },
        amountMicro: ssl(3),
        frozenUntil: rewardFrozenUntil(now),
      },
    ]);
    const forfeit = escrowForfeit({ serverId: SERVER, balanceMicro: ssl(3) }, 'banned');
    expect(forfeit.type).toBe('reward_forfeit');
    expect(forfeit.describedAs).toEqual({
      code: 'rewards_forfeited',
      values: { reason: 'banned' },
    });
    expect(
      escrowForfeit({ serverId: SERVER, balanceMicro: ssl(3) }, 'deleted').describedAs,
    ).toEqual({ code: 'rewards_forfeited', values: { reason: 'deleted' } });
    expect(forfeit.postings[1]).toEqual({
      account: { system: 'reward_pool' },
      amountMicro: ssl(3),
    });
    expect(sum(forfeit)).toBe(0n);
    expect(rewardRef(SERVER, '2026-10')).toBe(`reward:${SERVER}:2026-10`);
  });
});
