import { PROMOTION_PLANS, type PromotionPlanStatus } from '@scn/proto';

/** docs/product/constants.md#market-prices-and-limits: with no plan chosen the balance is checked against 1000 SSL (the cheapest). */
export const DEFAULT_PROMOTION_CHECK_SSL = PROMOTION_PLANS[0].costSsl;

/** What stops Promote in the page (`promotions.problem.<key>`, docs/product/input-rules.md#market-and-account-input's messages). */
export type PromoteProblem = 'selectPlan' | 'insufficientSsl' | 'capExceeded';

/**
 * docs/product/input-rules.md#market-and-account-input: what stops Promote before the request: no plan ('Please select a promotion
 * plan'), a plan past the cap (shown disabled), a price above the balance ('Insufficient SSL
 * balance'). Null when the request may go; the server checks all of it again.
 */
export function promoteProblem(
  plan: PromotionPlanStatus | null,
  balance: number,
): PromoteProblem | null {
  if (!plan) return balance < DEFAULT_PROMOTION_CHECK_SSL ? 'insufficientSsl' : 'selectPlan';
  if (!plan.allowed) return 'capExceeded';
  if (plan.cost > balance) return 'insufficientSsl';
  return null;
}

/** The plan ids the catalogue names (`promotions.plan.<id>`); another keeps the server's name. */
export function isKnownPlan(id: string): id is (typeof PROMOTION_PLANS)[number]['id'] {
  return PROMOTION_PLANS.some((plan) => plan.id === id);
}
