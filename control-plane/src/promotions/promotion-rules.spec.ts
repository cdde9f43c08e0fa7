import {
  MICRO_PER_SSL,
  PROMOTION_PLANS,
  promoteRequestSchema,
  promotionExpiry,
  promotionPlanAllowed,
  promotionPlanForDays,
  promotionSplit,
} from '@scn/proto';
import {
  costMatches,
  promotionPostings,
  promotionStatus,
  runningPromotionMicro,
} from './promotion-rules';

const ssl = (n: number) => BigInt(n) * MICRO_PER_SSL;
const DAY = 86_400_000;
const NOW = new Date('2026-05-10T08:00:00.000Z');
const [basic, standard, premium] = PROMOTION_PLANS;

describe('promotion plans (spec 01 §9)', () => {
  it('should be Basic 10 days for 1000 SSL, Standard 20 for 2000, Premium 30 for 3000', () => {
    expect(PROMOTION_PLANS.map((p) => [p.name, p.days, p.costSsl])).toEqual([
      ['Basic', 10, 1000],
      ['Standard', 20, 2000],
      ['Premium', 30, 3000],
    ]);
    expect(promotionPlanForDays(20)).toBe(standard);
    expect(promotionPlanForDays(15)).toBeUndefined();
  });

  it('should allow a plan only while what was paid plus its cost stays within 4000 SSL', () => {
    const allowed = (paid: number) =>
      PROMOTION_PLANS.filter((plan) => promotionPlanAllowed(ssl(paid), plan)).map((p) => p.id);
    expect(allowed(0)).toEqual(['basic', 'standard', 'premium']);
    expect(allowed(1000)).toEqual(['basic', 'standard', 'premium']);
    expect(allowed(2000)).toEqual(['basic', 'standard']);
    expect(allowed(3000)).toEqual(['basic']);
    // One micro-SSL past the edge is past the cap.
    expect(promotionPlanAllowed(ssl(3000) + 1n, basic!)).toBe(false);
    expect(allowed(4000)).toEqual([]);
  });

  it('should check the cost against the plan price, never take it', () => {
    expect(costMatches(premium!, 3000)).toBe(true);
    expect(costMatches(premium!, 1)).toBe(false);
    expect(costMatches(premium!, 3000.5)).toBe(false);
    expect(costMatches(basic!, 2000)).toBe(false);
  });
});

describe('promotion expiry (spec 01 §4)', () => {
  it('should promote a server that is not promoted for the plan days from now', () => {
    expect(promotionExpiry(NOW, null, 10)).toEqual(new Date(NOW.getTime() + 10 * DAY));
    // An ended promotion does not count: a new one starts now.
    const ended = new Date(NOW.getTime() - DAY);
    expect(promotionExpiry(NOW, ended, 20)).toEqual(new Date(NOW.getTime() + 20 * DAY));
    expect(promotionExpiry(NOW, NOW, 20)).toEqual(new Date(NOW.getTime() + 20 * DAY));
  });

  it('should extend a running promotion from its current expiry (an upgrade)', () => {
    const until = new Date(NOW.getTime() + 3 * DAY);
    expect(promotionExpiry(NOW, until, 30)).toEqual(new Date(NOW.getTime() + 33 * DAY));
  });

  it("should add an upgrade's price to the running promotion's, and start again after one ended", () => {
    const running = new Date(NOW.getTime() + DAY);
    expect(runningPromotionMicro(NOW, running, ssl(1000), ssl(2000))).toBe(ssl(3000));
    expect(runningPromotionMicro(NOW, new Date(NOW.getTime() - 1), ssl(1000), ssl(2000))).toBe(
      ssl(2000),
    );
    expect(runningPromotionMicro(NOW, null, null, ssl(1000))).toBe(ssl(1000));
  });
});

describe('promotion fee split (spec 02 §9)', () => {
  it('should burn 10% and pay the rest to the reward pool, exactly the fee in all', () => {
    for (const plan of PROMOTION_PLANS) {
      const fee = ssl(plan.costSsl);
      const { burnMicro, poolMicro } = promotionSplit(fee);
      expect(burnMicro).toBe(fee / 10n);
      expect(burnMicro + poolMicro).toBe(fee);
    }
    // Not a whole tenth: the burn rounds down, the pool takes the remainder.
    expect(promotionSplit(7n)).toEqual({ burnMicro: 0n, poolMicro: 7n });
    expect(promotionSplit(1_000_001n)).toEqual({ burnMicro: 100_000n, poolMicro: 900_001n });
  });

  it('should post a movement that sums to zero: the wallet pays, burn and pool receive', () => {
    const owner = '11111111-1111-4111-8111-111111111111';
    const postings = promotionPostings(owner, ssl(2000));
    expect(postings).toEqual([
      { account: { wallet: 'node_wallet', ownerUuid: owner }, amountMicro: -ssl(2000) },
      { account: { system: 'reward_pool' }, amountMicro: ssl(1800) },
      { account: { system: 'burn' }, amountMicro: ssl(200) },
    ]);
    expect(postings.reduce((sum, p) => sum + p.amountMicro, 0n)).toBe(0n);
  });
});

describe('promotion status', () => {
  it('should show the plans past the cap as not allowed and what the cap leaves', () => {
    const status = promotionStatus({
      serverId: 's',
      now: NOW,
      promotedUntil: new Date(NOW.getTime() + DAY),
      amountPaidMicro: ssl(2500),
      availableMicro: ssl(1234) + 500_000n,
    });
    expect(status).toMatchObject({
      active: true,
      amountPaid: 2500,
      remainingCapMicro: ssl(1500).toString(),
      balance: 1234.5,
      capSsl: 4000,
    });
    expect(status.plans.map((p) => [p.id, p.allowed])).toEqual([
      ['basic', true],
      ['standard', false],
      ['premium', false],
    ]);
    expect(
      promotionStatus({
        ...status,
        now: NOW,
        promotedUntil: NOW,
        amountPaidMicro: 0n,
        availableMicro: 0n,
      }).active,
    ).toBe(false);
  });
});

describe('promote request', () => {
  it('should ask for a plan when days are missing and refuse days of no plan', () => {
    const first = (body: unknown) => {
      const parsed = promoteRequestSchema.safeParse(body);
      return parsed.success ? null : parsed.error.issues[0]?.message;
    };
    expect(first({ cost: 1000 })).toBe('Please select a promotion plan');
    expect(first({ days: 11, cost: 1000 })).toBe('days must be one of the plans: 10, 20, 30');
    expect(first({ days: '10', cost: 1000 })).toBe('days must be one of the plans: 10, 20, 30');
    expect(first({ days: 10 })).toBe('cost must be a number of SSL');
    expect(first({ days: 10, cost: 1000, extra: 1 })).toBe('Unknown field: extra');
    expect(first({ days: 10, cost: 1000 })).toBeNull();
  });
});
