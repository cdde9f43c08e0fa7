import { describe, expect, it } from '@jest/globals';
import type { PromotionPlanStatus } from '@scn/proto';
import { DEFAULT_PROMOTION_CHECK_SSL, isKnownPlan, promoteProblem } from './promotion-rules';

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
    expect(promoteProblem(null, 1000)).toBe('selectPlan');
    expect(promoteProblem(null, 999.99)).toBe('insufficientSsl');
  });

  it('should refuse a price above the balance and a plan past the cap', () => {
    expect(promoteProblem(plan(2000), 1999)).toBe('insufficientSsl');
    expect(promoteProblem(plan(2000), 2000)).toBeNull();
    expect(promoteProblem(plan(3000, false), 5000)).toBe('capExceeded');
  });

  it('should know the plans the catalogue names', () => {
    expect(isKnownPlan('standard')).toBe(true);
    expect(isKnownPlan('p3000')).toBe(false);
  });
});
