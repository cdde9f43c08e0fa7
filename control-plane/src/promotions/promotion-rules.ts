import {
  PROMOTION_CAP_MICRO,
  PROMOTION_CAP_SSL,
  PROMOTION_PLANS,
  type PromotionPlan,
  promotionPlanAllowed,
  promotionPlanCostMicro,
  type PromotionStatus,
  promotionSplit,
} from '@scn/proto';
import { sslNumber } from '../common/money';
import type { Posting } from '../wallet/ledger.service';

/**
 * docs/product/calls.md#market-and-account-calls: the request's `cost` is what the modal showed; it must be the plan's price (whole
 * SSL) exactly, or the client saw another price than the server charges. Never charged itself.
 */
export function costMatches(plan: PromotionPlan, cost: number): boolean {
  return cost === plan.costSsl;
}

/**
 * One promotion's movement (docs/product/constants.md#billing-and-the-economy): the plan's price out of the operator's node wallet,
 * 10% of it to the burn account and the rest to the operators' reward pool. Sums to zero.
 */
export function promotionPostings(ownerUuid: string, costMicro: bigint): Posting[] {
  const { burnMicro, poolMicro } = promotionSplit(costMicro);
  const postings: Posting[] = [
    { account: { wallet: 'node_wallet', ownerUuid }, amountMicro: -costMicro },
    { account: { system: 'reward_pool' }, amountMicro: poolMicro },
  ];
  if (burnMicro > 0n) postings.push({ account: { system: 'burn' }, amountMicro: burnMicro });
  return postings;
}

/**
 * What the promotion running after a purchase has cost: an upgrade (the server still promoted at
 * `now`) adds the price to it, otherwise a new promotion starts from the price.
 */
export function runningPromotionMicro(
  now: Date,
  promotedUntil: Date | null,
  currentMicro: bigint | null,
  costMicro: bigint,
): bigint {
  const running = promotedUntil !== null && promotedUntil.getTime() > now.getTime();
  return running ? (currentMicro ?? 0n) + costMicro : costMicro;
}

/** The state of a server's promotion as the Promote Server modal shows it (docs/product/records.md#market-and-wallet-records). */
export function promotionStatus(input: {
  serverId: string;
  now: Date;
  promotedUntil: Date | null;
  amountPaidMicro: bigint;
  availableMicro: bigint;
}): PromotionStatus {
  const { amountPaidMicro: paid, availableMicro } = input;
  const remaining = PROMOTION_CAP_MICRO > paid ? PROMOTION_CAP_MICRO - paid : 0n;
  return {
    success: true,
    serverId: input.serverId,
    active: input.promotedUntil !== null && input.promotedUntil.getTime() > input.now.getTime(),
    expiresAt: input.promotedUntil?.toISOString() ?? null,
    amountPaid: sslNumber(paid),
    amountPaidMicro: paid.toString(),
    remainingCapMicro: remaining.toString(),
    capSsl: PROMOTION_CAP_SSL,
    balance: sslNumber(availableMicro),
    balanceMicro: availableMicro.toString(),
    plans: PROMOTION_PLANS.map((plan: PromotionPlan) => ({
      id: plan.id,
      name: plan.name,
      days: plan.days,
      cost: plan.costSsl,
      costMicro: promotionPlanCostMicro(plan).toString(),
      allowed: promotionPlanAllowed(paid, plan),
    })),
  };
}
