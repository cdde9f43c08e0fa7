import { PROMOTION_MESSAGES, PROMOTION_PLANS, type PromotionPlanStatus } from '@scn/proto';

/** spec 01 §9: with no plan chosen the balance is checked against 1000 SSL (the cheapest). */
export const DEFAULT_PROMOTION_CHECK_SSL = PROMOTION_PLANS[0].costSsl;

/**
 * spec 01 §5: what stops Promote before the request: no plan ('Please select a promotion
 * plan'), a plan past the cap (shown disabled), a price above the balance ('Insufficient SSL
 * balance'). Null when the request may go; the server checks all of it again.
 */
export function promoteProblem(
  plan: PromotionPlanStatus | null,
  balance: number,
  amountPaidMicro: string,
): string | null {
  if (!plan) {
    return balance < DEFAULT_PROMOTION_CHECK_SSL
      ? PROMOTION_MESSAGES.insufficientSsl
      : PROMOTION_MESSAGES.selectPlan;
  }
  if (!plan.allowed) return PROMOTION_MESSAGES.capExceeded(amountPaidMicro);
  if (plan.cost > balance) return PROMOTION_MESSAGES.insufficientSsl;
  return null;
}

/** '10 days · 1,000 SSL' */
export function planSummary(plan: PromotionPlanStatus): string {
  return `${plan.days} days · ${plan.cost.toLocaleString('en-US')} SSL`;
}

/** A date and time for the status line, in the viewer's zone. */
export function formatExpiry(iso: string): string {
  return new Date(iso).toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}
