import { describe, expect, it } from '@jest/globals';
import { PROMOTION_MESSAGES, type PromotionPlanStatus } from '@scn/proto';
import { DEFAULT_PROMOTION_CHECK_SSL, planSummary, promoteProblem } from './promotion-rules';

const plan = (cost: number, allowed = true): PromotionPlanStatus => ({
  id: `p${cost}`,
  name: 'Plan',
  days: cost / 100,
  cost,
  costMicro: String(cost * 1_000_000),
  allowed,
});

describe('promoteProblem (spec 01 §5)', () => {
  it('should ask for a plan, checking the balance against 1000 SSL while none is chosen', () => {
    expect(DEFAULT_PROMOTION_CHECK_SSL).toBe(1000);
    expect(promoteProblem(null, 1000, '0')).toBe(PROMOTION_MESSAGES.selectPlan);
    expect(promoteProblem(null, 999.99, '0')).toBe(PROMOTION_MESSAGES.insufficientSsl);
  });

  it('should refuse a price above the balance and a plan past the cap', () => {
    expect(promoteProblem(plan(2000), 1999, '0')).toBe(PROMOTION_MESSAGES.insufficientSsl);
    expect(promoteProblem(plan(2000), 2000, '0')).toBeNull();
    expect(promoteProblem(plan(3000, false), 5000, '2000000000')).toBe(
      PROMOTION_MESSAGES.capExceeded('2000000000'),
    );
  });

  it('should describe a plan by its days and price', () => {
    expect(planSummary(plan(3000))).toBe('30 days · 3,000 SSL');
  });
});
