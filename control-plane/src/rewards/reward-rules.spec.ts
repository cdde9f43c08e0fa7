import { ECONOMICS, MICRO_PER_SSL, SSL_USD_PRICE, VPS_TIERS } from '@scn/proto';
import {
  allowedClients,
  autoStakeMicro,
  baseReward,
  budgetScale,
  cycleMonth,
  halvingCutApplies,
  monthlyBudgetMicro,
  nodeYear,
  REWARD_POOL_GENESIS_MICRO,
  requiredStakeMicro,
  requiredStakeSharePercent,
  scaleMicro,
  scaleToBudget,
  UNSCALED,
  stakeUnlocksAt,
  stakingIncomeMicro,
  subscriptionLineMicro,
  tierBaseMicro,
} from './reward-rules';

const ssl = (value: number) => BigInt(value) * MICRO_PER_SSL;
const MONTH = 30 * 86_400;
/** A whole period at a constant reliability `r` (percent). */
const steady = (r: number, seconds = MONTH, belowSeconds = r < 95 ? seconds : 0) => ({
  observedSeconds: seconds,
  reliabilitySeconds: BigInt(r) * BigInt(seconds),
  belowSeconds,
});
const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

describe('base reward and slashing (spec 02 §9)', () => {
  it('should reproduce the worked example: base 1,500 + 20 clients x 10 + ads 4 = 1,704 SSL = $59.64', () => {
    const reward = baseReward('tier3', steady(100), MONTH, false);
    expect(reward.earnedMicro).toBe(ssl(1500));
    const total = reward.earnedMicro + subscriptionLineMicro(20) + ssl(4);
    expect(total).toBe(ssl(1704));
    expect((1704 * SSL_USD_PRICE.numerator) / SSL_USD_PRICE.denominator).toBeCloseTo(59.64, 10);
    // 50% auto-stake of the month: 852 SSL, earning 852 x 12% / 12 = 8.52 SSL a month.
    const staked = autoStakeMicro(total, 50);
    expect(staked).toBe(ssl(852));
    expect(stakingIncomeMicro(staked, staked)).toBe(8_520_000n);
  });

  it('should pay every tier its wizard promise at 100% and full capacity', () => {
    for (const tier of VPS_TIERS) {
      const reward = baseReward(tier.id, steady(100), MONTH, false);
      expect(reward.earnedMicro + subscriptionLineMicro(tier.maxClients)).toBe(
        ssl(tier.monthlyEarningsSsl),
      );
    }
  });

  it('should slash 2% of the base per point of reliability lost, and all of it at 50%', () => {
    expect(baseReward('tier3', steady(99), MONTH, false)).toMatchObject({
      reliabilityBasisPoints: 9900,
      slashBasisPoints: 200,
      earnedMicro: ssl(1470),
    });
    // Exactly 95%: 10% slashed, nothing frozen (95 is not below 95).
    expect(baseReward('tier3', steady(95), MONTH, false)).toMatchObject({
      slashBasisPoints: 1000,
      earnedMicro: ssl(1350),
      frozenMicro: 0n,
      payableMicro: ssl(1350),
    });
    for (const r of [50, 30, 0]) {
      expect(baseReward('tier3', steady(r), MONTH, false)).toMatchObject({
        slashBasisPoints: 10_000,
        earnedMicro: 0n,
      });
    }
  });

  it('should weigh reliability by time: half the month at 100 and half at 90 is 95', () => {
    const half = MONTH / 2;
    const reward = baseReward(
      'tier3',
      {
        observedSeconds: MONTH,
        reliabilitySeconds: 100n * BigInt(half) + 90n * BigInt(half),
        belowSeconds: half,
      },
      MONTH,
      false,
    );
    expect(reward.reliabilityBasisPoints).toBe(9500);
    expect(reward.earnedMicro).toBe(ssl(1350));
    // The half spent below 95% is frozen, the rest is paid.
    expect(reward.frozenMicro).toBe(ssl(675));
    expect(reward.payableMicro).toBe(ssl(675));
  });

  it('should pay pro rata for a node enrolled mid-month', () => {
    const reward = baseReward('tier3', steady(100, MONTH / 3), MONTH, false);
    expect(reward.proRataMicro).toBe(ssl(500));
    expect(reward.earnedMicro).toBe(ssl(500));
    expect(baseReward('tier3', steady(100, 0), MONTH, false).earnedMicro).toBe(0n);
  });

  it('should floor to the micro-SSL and never pay more than the base', () => {
    const reward = baseReward(
      'tier1',
      { observedSeconds: 7, reliabilitySeconds: 700n, belowSeconds: 0 },
      MONTH,
      false,
    );
    expect(reward.earnedMicro).toBe((ssl(250) * 7n) / BigInt(MONTH));
    expect(tierBaseMicro(null)).toBe(0n);
    expect(baseReward(null, steady(100), MONTH, false).earnedMicro).toBe(0n);
  });

  it('should never pay more than the base when the facts say more than can be true', () => {
    // Twice the month's seconds at 100%: the average (100%) over the month, not twice the base.
    expect(baseReward('tier3', steady(100, 2 * MONTH), MONTH, false).earnedMicro).toBe(ssl(1500));
    // Twice the month at 97.5% on average, half of it below 95%: as a month at 97.5%, half below.
    const doubled = baseReward(
      'tier3',
      { observedSeconds: 2 * MONTH, reliabilitySeconds: 195n * BigInt(MONTH), belowSeconds: MONTH },
      MONTH,
      false,
    );
    expect(doubled).toMatchObject({ reliabilityBasisPoints: 9750, earnedMicro: ssl(1425) });
    expect(doubled.frozenMicro).toBe(ssl(1425) / 2n);
    // A reliability sum above 100% of the seconds counts as 100%.
    expect(
      baseReward(
        'tier3',
        { observedSeconds: MONTH, reliabilitySeconds: 500n * BigInt(MONTH), belowSeconds: 0 },
        MONTH,
        false,
      ).earnedMicro,
    ).toBe(ssl(1500));
  });

  it('should halve the base when halving protection cuts it', () => {
    expect(baseReward('tier3', steady(100), MONTH, true)).toMatchObject({
      tierBaseMicro: ssl(1500),
      halvingCut: true,
      earnedMicro: ssl(750),
    });
    expect(allowedClients(60, true)).toBe(30);
    expect(allowedClients(25, true)).toBe(12);
    expect(allowedClients(25, false)).toBe(25);
  });
});

describe('halving protection and hardware age (spec 02 §4, §9)', () => {
  const enrolled = day('2026-01-01');
  it('should count node years from enrollment by anniversaries', () => {
    expect(nodeYear(enrolled, day('2026-12-31'))).toBe(1);
    expect(nodeYear(enrolled, day('2027-01-01'))).toBe(2);
    expect(nodeYear(enrolled, day('2029-12-31'))).toBe(4);
    expect(nodeYear(day('2028-02-29'), day('2029-02-28'))).toBe(1);
    expect(nodeYear(day('2028-02-29'), day('2029-03-01'))).toBe(2);
    expect(nodeYear(enrolled, day('2030-01-01'))).toBe(5);
    expect([1, 2, 3, 4, 5, 9].map(requiredStakeSharePercent)).toEqual([20, 30, 40, 50, 50, 50]);
    expect(requiredStakeMicro(ssl(1000), 2)).toBe(ssl(300));
  });

  it('should cut after year 4 or 4 years of hardware, unless the stake covers the requirement', () => {
    const base = { enrolledAt: enrolled, hardwareSince: enrolled, stakeMicro: 0n };
    const required = ssl(100);
    // Year 4, hardware a day short of 4 years: no cut even without stake.
    expect(
      halvingCutApplies({ ...base, at: day('2029-12-31'), requiredStakeMicro: required }),
    ).toBe(false);
    // Year 5: cut without stake, none with enough.
    expect(
      halvingCutApplies({ ...base, at: day('2030-01-02'), requiredStakeMicro: required }),
    ).toBe(true);
    expect(
      halvingCutApplies({
        ...base,
        at: day('2030-01-02'),
        stakeMicro: required,
        requiredStakeMicro: required,
      }),
    ).toBe(false);
    // A node enrolled later on hardware first reported earlier: the hardware's age counts.
    const oldHardware = {
      enrolledAt: day('2028-01-01'),
      hardwareSince: day('2026-01-01'),
      stakeMicro: 0n,
      requiredStakeMicro: required,
    };
    expect(halvingCutApplies({ ...oldHardware, at: day('2029-12-31') })).toBe(false);
    expect(halvingCutApplies({ ...oldHardware, at: day('2030-01-01') })).toBe(true);
    // An upgrade resets the hardware's age.
    expect(
      halvingCutApplies({
        ...oldHardware,
        hardwareSince: day('2029-06-01'),
        at: day('2030-01-01'),
      }),
    ).toBe(false);
  });
});

describe('staking income, the pool and the budget (spec 02 §9)', () => {
  it('should pay 1% a month on the stake held through the period', () => {
    expect(stakingIncomeMicro(ssl(1000), ssl(1000))).toBe(ssl(10));
    expect(stakingIncomeMicro(0n, ssl(1000))).toBe(0n);
    expect(stakingIncomeMicro(ssl(1000), ssl(400))).toBe(ssl(4));
    expect(() => autoStakeMicro(ssl(1), 101)).toThrow(RangeError);
    expect(() => autoStakeMicro(ssl(1), 2.5)).toThrow(RangeError);
  });

  it('should lock every stake credit for the lock days from when it is made', () => {
    expect(stakeUnlocksAt(new Date('2026-01-15T10:00:00Z'))).toEqual(
      new Date('2026-02-14T10:00:00Z'),
    );
    expect(ECONOMICS.stakeLockDays).toBe(30);
  });

  it('should hold 15% of the 10 billion SSL supply at genesis', () => {
    expect(REWARD_POOL_GENESIS_MICRO).toBe(ssl(1_500_000_000));
  });

  it('should share the pool over the months left in the 12-month cycle', () => {
    expect(monthlyBudgetMicro(ssl(1200), 0)).toBe(ssl(100));
    expect(monthlyBudgetMicro(ssl(1210), 1)).toBe(ssl(110));
    expect(monthlyBudgetMicro(ssl(100), 11)).toBe(ssl(100));
    expect(monthlyBudgetMicro(ssl(1200), 12)).toBe(ssl(100));
    expect(monthlyBudgetMicro(0n, 3)).toBe(0n);
    // A month before genesis is in the cycle before: index -1 is its last month.
    expect(monthlyBudgetMicro(ssl(100), -1)).toBe(ssl(100));
    expect([0, 1, 11, 12, 25, -1, -12, -13].map(cycleMonth)).toEqual([0, 1, 11, 0, 1, 11, 0, 11]);
  });

  it('should scale every payout by budget / total when a month is short, never passing it', () => {
    expect(scaleToBudget([ssl(10), ssl(20)], ssl(30))).toEqual([ssl(10), ssl(20)]);
    expect(scaleToBudget([ssl(10), ssl(30)], ssl(20))).toEqual([ssl(5), ssl(15)]);
    const scaled = scaleToBudget([1n, 1n, 1n], 2n);
    expect(scaled).toEqual([0n, 0n, 0n]);
    expect(scaleToBudget([7n, 11n, 13n], 10n).reduce((a, b) => a + b, 0n)).toBeLessThanOrEqual(10n);
    expect(scaleToBudget([ssl(1)], 0n)).toEqual([0n]);
  });

  it('should state the scale as budget / total only when the total passes the budget', () => {
    expect(budgetScale(ssl(30), ssl(30))).toEqual(UNSCALED);
    expect(budgetScale(ssl(40), ssl(20))).toEqual({
      numeratorMicro: ssl(20),
      denominatorMicro: ssl(40),
    });
    expect(budgetScale(ssl(1), 0n)).toEqual({ numeratorMicro: 0n, denominatorMicro: 1n });
    expect(budgetScale(0n, 0n)).toEqual(UNSCALED);
    // Scaling each part of a payout apart never pays more than scaling the whole.
    const scale = budgetScale(ssl(3), ssl(2));
    const parts = scaleMicro(1_000_001n, scale) + scaleMicro(1_999_999n, scale);
    expect(parts).toBeLessThanOrEqual(scaleMicro(ssl(3), scale));
    expect(scaleMicro(ssl(3), scale)).toBe(ssl(2));
  });
});
