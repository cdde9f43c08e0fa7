import { z } from 'zod';
import { ECONOMICS, MICRO_PER_SSL, PROMOTION_CAP_SSL, PROMOTION_PLANS } from '../economics';
import { formatSsl } from '../money';
import { requestBody } from './common.contract';

/**
 * docs/product/screens.md#the-shell-and-the-market-screens, docs/product/records.md#market-and-wallet-records, docs/product/input-rules.md#market-and-account-input, docs/product/calls.md#market-and-account-calls, docs/product/messages.md#market-and-account-messages, docs/product/constants.md#market-prices-and-limits: an operator pays SSL to list a server of theirs first in the
 * market. The server decides every amount: the price is the plan's (the request's `cost` is
 * checked against it, never charged), the cumulative cap is checked under the listing's lock, and
 * 10% of the fee is burned, the rest goes to the operators' reward pool (docs/product/constants.md#billing-and-the-economy).
 */
export const PROMOTION_ROUTES = {
  promotion: (serverId: string) => `/servers/${encodeURIComponent(serverId)}/promotion`,
  promote: (serverId: string) => `/servers/${encodeURIComponent(serverId)}/promote`,
} as const;

export type PromotionPlan = (typeof PROMOTION_PLANS)[number];
export type PromotionPlanId = PromotionPlan['id'];

export const PROMOTION_CAP_MICRO = BigInt(PROMOTION_CAP_SSL) * MICRO_PER_SSL;
const DAY_MS = 86_400_000;

export const PROMOTION_MESSAGES = {
  /** docs/product/input-rules.md#market-and-account-input. */
  selectPlan: 'Please select a promotion plan',
  insufficientSsl: 'Insufficient SSL balance',
  /** docs/product/messages.md#market-and-account-messages: the answer to code insufficient_balance. */
  insufficientBalance: 'Not enough SSL tokens. Please add more to your balance.',
  failed: 'Failed to promote server. Please try again.',
  fetchFailed: 'Failed to load the promotion status',
  daysInvalid: `days must be one of the plans: ${PROMOTION_PLANS.map((p) => p.days).join(', ')}`,
  costInvalid: 'cost must be a number of SSL',
  costMismatch: (plan: PromotionPlan) =>
    `The ${plan.name} plan costs ${plan.costSsl} SSL; the price has changed, please reload`,
  capExceeded: (paidMicro: bigint | string) =>
    `This plan would take the server past the ${PROMOTION_CAP_SSL} SSL promotion cap (${formatSsl(paidMicro)} SSL paid so far)`,
  premiumServer: 'Premium servers are always listed first and cannot be promoted',
  promoted: (plan: PromotionPlan, expiresAt: string) =>
    `Server promoted with the ${plan.name} plan until ${new Date(expiresAt).toUTCString()}`,
} as const;

/** The plan of `days`, or undefined. */
export function promotionPlanForDays(days: number): PromotionPlan | undefined {
  return PROMOTION_PLANS.find((plan) => plan.days === days);
}

export function promotionPlanCostMicro(plan: PromotionPlan): bigint {
  return BigInt(plan.costSsl) * MICRO_PER_SSL;
}

/** docs/product/input-rules.md#market-and-account-input: a plan is disabled when what was paid so far plus its cost passes the cap. */
export function promotionPlanAllowed(paidMicro: bigint, plan: PromotionPlan): boolean {
  return paidMicro + promotionPlanCostMicro(plan) <= PROMOTION_CAP_MICRO;
}

/** docs/product/constants.md#billing-and-the-economy: 10% of a promotion fee is burned, the rest goes to the reward pool. */
export function promotionSplit(costMicro: bigint): { burnMicro: bigint; poolMicro: bigint } {
  const burnMicro = (costMicro * BigInt(ECONOMICS.promotionBurnPercent)) / 100n;
  return { burnMicro, poolMicro: costMicro - burnMicro };
}

/**
 * docs/product/states.md#market-and-account-states: a server not promoted is promoted for the plan's days from now; one still promoted
 * (an upgrade) gets the days added to its current expiry.
 */
export function promotionExpiry(now: Date, currentUntil: Date | null, days: number): Date {
  const from = currentUntil && currentUntil.getTime() > now.getTime() ? currentUntil : now;
  return new Date(from.getTime() + days * DAY_MS);
}

type IssueLike = { input?: unknown };

/** docs/product/calls.md#market-and-account-calls POST /servers/{id}/promote: the plan's days and the cost the modal showed. */
export const promoteRequestSchema = requestBody({
  days: z
    .number({
      error: (issue: IssueLike) =>
        issue.input === undefined || issue.input === null
          ? PROMOTION_MESSAGES.selectPlan
          : PROMOTION_MESSAGES.daysInvalid,
    })
    .refine((days) => promotionPlanForDays(days) !== undefined, PROMOTION_MESSAGES.daysInvalid),
  cost: z
    .number({ error: PROMOTION_MESSAGES.costInvalid })
    .finite(PROMOTION_MESSAGES.costInvalid)
    .nonnegative(PROMOTION_MESSAGES.costInvalid),
});
export type PromoteRequest = z.infer<typeof promoteRequestSchema>;

const microString = z.string().regex(/^-?\d+$/);

export const promotionPlanStatusSchema = z.object({
  id: z.string(),
  name: z.string(),
  days: z.number(),
  cost: z.number(),
  costMicro: microString,
  /** False when it would take the server past the cap (docs/product/input-rules.md#market-and-account-input: shown disabled). */
  allowed: z.boolean(),
});
export type PromotionPlanStatus = z.infer<typeof promotionPlanStatusSchema>;

/** docs/product/records.md#market-and-wallet-records Promotion: active, expiresAt, amountPaid, balance; and what the modal needs. */
export const promotionStatusSchema = z.object({
  success: z.literal(true),
  serverId: z.string(),
  active: z.boolean(),
  /** When the promotion ends (server clock); null if the server was never promoted. */
  expiresAt: z.string().nullable(),
  /** SSL paid for this server's promotions so far (the cap counts it). */
  amountPaid: z.number(),
  amountPaidMicro: microString,
  /** What more the cap allows. */
  remainingCapMicro: microString,
  capSsl: z.number(),
  /** The node wallet's available balance (not frozen rewards), in SSL and micro-SSL. */
  balance: z.number(),
  balanceMicro: microString,
  plans: z.array(promotionPlanStatusSchema),
});
export type PromotionStatus = z.infer<typeof promotionStatusSchema>;

/** The answer of a promotion (stored under its Idempotency-Key and replayed as is). */
export const promoteResponseSchema = promotionStatusSchema.extend({
  message: z.string(),
  transactionId: z.string(),
  plan: z.string(),
  days: z.number(),
  costMicro: microString,
  burnedMicro: microString,
  poolMicro: microString,
});
export type PromoteResponse = z.infer<typeof promoteResponseSchema>;
