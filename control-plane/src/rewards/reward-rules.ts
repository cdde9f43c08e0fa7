import { ECONOMICS, MICRO_PER_SSL, PRICING, VPS_TIERS, type VpsTierId } from '@scn/proto';

/**
 * The operators' economy as pure functions (docs/product/constants.md#billing-and-the-economy): the monthly statement of one
 * node, halving protection, staking income and the pool's monthly budget. Integer micro-SSL
 * and integer seconds only; every division floors, so the engine never pays a fraction of a
 * micro-SSL more than the rules give. docs/economics.md states each rule with its figures.
 */

const PERCENT = 100n;

/** docs/product/constants.md#billing-and-the-economy: 15% of the 10 billion SSL supply, the pool's balance at genesis (in @scn/proto, so
 * migration 2400 reads it without importing a domain). */
export { REWARD_POOL_GENESIS_MICRO } from '@scn/proto';

/** What the reliability history says of one node over one period. */
export interface ReliabilityFacts {
  /** Seconds of the period the node was enrolled and not banned (the history's seconds). */
  observedSeconds: number;
  /** The sum of reliability (0 to 100) x seconds over those seconds: time-weighted. */
  reliabilitySeconds: bigint;
  /** Seconds of those spent below the 95% threshold (hidden: their base reward is frozen). */
  belowSeconds: number;
}

/** One node's base reward for one period, each step kept for the statement. */
export interface BaseReward {
  /** The tier's monthly base (0 for a node without a tier, e.g. a manual server). */
  tierBaseMicro: bigint;
  /** Halving protection cut the base by half (see halvingCutApplies). */
  halvingCut: boolean;
  /** After the halving cut, pro rata for the seconds the node was enrolled in the period. */
  proRataMicro: bigint;
  /** The period's time-weighted reliability, in basis points of a percent (10000 = 100%). */
  reliabilityBasisPoints: number;
  /** docs/product/constants.md#billing-and-the-economy: 2 x (1 - reliability) x 100, in basis points (10000 = 100% slashed). */
  slashBasisPoints: number;
  /** proRata less the slash: what the period earned. */
  earnedMicro: bigint;
  /** The part earned while below 95% (frozen until the node recovers, or forfeited). */
  frozenMicro: bigint;
  /** earned less frozen: what is paid now. */
  payableMicro: bigint;
}

/** The tier's monthly base reward in micro-SSL (0 without a tier). */
export function tierBaseMicro(tier: VpsTierId | null): bigint {
  const found = VPS_TIERS.find((candidate) => candidate.id === tier);
  return found ? BigInt(found.baseRewardSsl) * MICRO_PER_SSL : 0n;
}

/**
 * docs/product/constants.md#billing-and-the-economy: base x (seconds enrolled / seconds in the period), then slashed
 * by 2 x (1 - R) with R the time-weighted reliability; 50% or less slashes everything. In one
 * exact fraction: base x observed/period x max(0, 2 x R - 100)/100 with R = Σ(r x s) / observed,
 * so base x max(0, 2 x Σ(r x s) - 100 x observed) / (100 x period).
 */
export function baseReward(
  tier: VpsTierId | null,
  facts: ReliabilityFacts,
  periodSeconds: number,
  halvingCut: boolean,
): BaseReward {
  if (periodSeconds <= 0) throw new RangeError('a period has seconds');
  // Facts are trusted only as far as they can be true: at most the period's seconds, at most
  // 100% of them. More seconds than the period (a history counted twice) keep their average.
  const period = BigInt(periodSeconds);
  const rawObserved = BigInt(Math.max(0, facts.observedSeconds));
  const rawReliability = clampBig(facts.reliabilitySeconds, 0n, PERCENT * rawObserved);
  const rawBelow = BigInt(Math.max(0, Math.min(facts.belowSeconds, facts.observedSeconds)));
  const over = rawObserved > period;
  const observed = over ? period : rawObserved;
  const reliabilitySeconds = over ? (rawReliability * period) / rawObserved : rawReliability;
  const below = over ? (rawBelow * period) / rawObserved : rawBelow;
  const fullBase = tierBaseMicro(tier);
  const base = halvingCut
    ? (fullBase * BigInt(100 - ECONOMICS.hardwareAgeCutPercent)) / PERCENT
    : fullBase;
  const proRata = (base * observed) / period;
  const reliabilityBasisPoints =
    observed === 0n ? 0 : Number((reliabilitySeconds * PERCENT) / observed);
  const slashBasisPoints = Math.min(10_000, Math.max(0, 2 * (10_000 - reliabilityBasisPoints)));
  const kept = 2n * reliabilitySeconds - PERCENT * observed;
  const earned = kept > 0n ? (base * kept) / (PERCENT * period) : 0n;
  const frozen = observed === 0n ? 0n : (earned * below) / observed;
  return {
    tierBaseMicro: fullBase,
    halvingCut,
    proRataMicro: proRata,
    reliabilityBasisPoints,
    slashBasisPoints,
    earnedMicro: earned,
    frozenMicro: frozen,
    payableMicro: earned - frozen,
  };
}

function clampBig(value: bigint, min: bigint, max: bigint): bigint {
  return value < min ? min : value > max ? max : value;
}

/** `date` plus whole calendar years (UTC; 29 February goes to 1 March in other years). */
export function addYears(date: Date, years: number): Date {
  const moved = new Date(date.getTime());
  moved.setUTCFullYear(date.getUTCFullYear() + years);
  return moved;
}

/** Whole years from `from` to `at` by anniversaries (0 before the first). */
function fullYears(from: Date, at: Date): number {
  let years = Math.max(0, at.getUTCFullYear() - from.getUTCFullYear());
  while (years > 0 && addYears(from, years) > at) years -= 1;
  return years;
}

/** docs/product/constants.md#billing-and-the-economy: the node's year of operation at `at`: 1 until its first anniversary. */
export function nodeYear(enrolledAt: Date, at: Date): number {
  return fullYears(enrolledAt, at) + 1;
}

/** docs/product/constants.md#billing-and-the-economy halving protection: the share of monthly earnings to stake, 20/30/40/50%, then 50%. */
export function requiredStakeSharePercent(year: number): number {
  const shares = ECONOMICS.stakingShareByYear;
  return shares[Math.min(Math.max(year, 1), shares.length) - 1]!;
}

/** What halving protection looks at for one node in one period. */
export interface HalvingFacts {
  enrolledAt: Date;
  /** When the hardware was last upgraded (more cores or memory), or first reported. */
  hardwareSince: Date;
  /** The end of the period being paid. */
  at: Date;
  /** The operator's stake now, and the stake the requirement asks for so far (cumulative). */
  stakeMicro: bigint;
  requiredStakeMicro: bigint;
}

/**
 * docs/product/states.md#subscription-and-reliability-states, docs/product/constants.md#billing-and-the-economy: after year 4 of the node, or after 4 years of hardware without an upgrade,
 * rewards and allowed clients are cut by 50% unless the staking requirement was met: the
 * operator's stake covers every share the requirement asked of past earnings.
 */
export function halvingCutApplies(facts: HalvingFacts): boolean {
  const years = ECONOMICS.hardwareAgeYears;
  const old =
    nodeYear(facts.enrolledAt, facts.at) > years ||
    fullYears(facts.hardwareSince, facts.at) >= years;
  return old && facts.stakeMicro < facts.requiredStakeMicro;
}

/** The stake a period's earnings add to the requirement: earnings x the year's share. */
export function requiredStakeMicro(earningsMicro: bigint, year: number): bigint {
  return (earningsMicro * BigInt(requiredStakeSharePercent(year))) / PERCENT;
}

/** A node's allowed clients after a halving cut (docs/product/states.md#subscription-and-reliability-states). */
export function allowedClients(maxClients: number, halvingCut: boolean): number {
  return halvingCut
    ? Math.floor((maxClients * (100 - ECONOMICS.hardwareAgeCutPercent)) / 100)
    : maxClients;
}

/**
 * docs/product/constants.md#billing-and-the-economy: stake income is stake x 12% / 12 a month, on the stake held through the whole
 * period: the smaller of the stake at its start and at its end (staking on the last day earns
 * nothing that month).
 */
export function stakingIncomeMicro(stakeAtStartMicro: bigint, stakeAtEndMicro: bigint): bigint {
  const held = stakeAtStartMicro < stakeAtEndMicro ? stakeAtStartMicro : stakeAtEndMicro;
  if (held <= 0n) return 0n;
  return (held * BigInt(ECONOMICS.stakingApyPercent)) / (PERCENT * 12n);
}

/** The automatic stake of a payout: floor(payout x percent / 100). */
export function autoStakeMicro(payoutMicro: bigint, percent: number): bigint {
  if (!Number.isInteger(percent) || percent < 0 || percent > 100)
    throw new RangeError('an auto-stake percent is a whole number from 0 to 100');
  return (payoutMicro * BigInt(percent)) / PERCENT;
}

const DAY_MS = 86_400_000;

/**
 * docs/product/roles.md#who-may-use-the-dashboards: every credit to a stake, a stake made by hand or the automatic stake
 * of a payout, is locked ECONOMICS.stakeLockDays from when it is made. The ledger entry of the
 * credit carries it as `frozen_until` (stakeCredit of reward-payouts, which staking's stakePostings
 * and the payouts both write); an unstake takes only credits past it.
 */
export function stakeUnlocksAt(at: Date): Date {
  return new Date(at.getTime() + ECONOMICS.stakeLockDays * DAY_MS);
}

/**
 * docs/product/constants.md#billing-and-the-economy reward cycle: the pool is spent over 12-month cycles from genesis. A month's
 * budget is the pool's balance when the month is paid, shared evenly over the months left in
 * the cycle (so what one month does not spend, and promotion money paid in, raises the later
 * ones). `monthIndex` counts months since genesis from 0.
 */
export function monthlyBudgetMicro(poolMicro: bigint, monthIndex: number): bigint {
  const left = ECONOMICS.rewardCycleMonths - cycleMonth(monthIndex);
  return poolMicro > 0n ? poolMicro / BigInt(left) : 0n;
}

/** A month's place in its 12-month cycle, 0 to 11, from its index since genesis (any sign). */
export function cycleMonth(monthIndex: number): number {
  const cycle = ECONOMICS.rewardCycleMonths;
  return ((monthIndex % cycle) + cycle) % cycle;
}

/** The factor a period's pool payouts are scaled by: numerator / denominator, at most 1. */
export interface BudgetScale {
  numeratorMicro: bigint;
  denominatorMicro: bigint;
}

/** No scaling: the period's payouts fit its budget. */
export const UNSCALED: BudgetScale = { numeratorMicro: 1n, denominatorMicro: 1n };

/**
 * When a month's pool payouts would pass its budget, every one is scaled by the
 * same factor, budget / total (each amount floored, so the sum never passes the budget);
 * otherwise they are paid in full.
 */
export function budgetScale(totalMicro: bigint, budgetMicro: bigint): BudgetScale {
  if (totalMicro <= budgetMicro) return UNSCALED;
  if (budgetMicro <= 0n) return { numeratorMicro: 0n, denominatorMicro: 1n };
  return { numeratorMicro: budgetMicro, denominatorMicro: totalMicro };
}

/** One amount scaled: floor(amount x numerator / denominator). */
export function scaleMicro(amountMicro: bigint, scale: BudgetScale): bigint {
  return (amountMicro * scale.numeratorMicro) / scale.denominatorMicro;
}

/** Every amount scaled by the one factor budgetScale gives for their total. */
export function scaleToBudget(amounts: readonly bigint[], budgetMicro: bigint): bigint[] {
  const total = amounts.reduce((sum, amount) => sum + amount, 0n);
  const scale = budgetScale(total, budgetMicro);
  return amounts.map((amount) => scaleMicro(amount, scale));
}

/** docs/product/constants.md#billing-and-the-economy node income = base + clients x 10 + ad bonus: the subscription line. */
export function subscriptionLineMicro(clients: number): bigint {
  return BigInt(clients) * BigInt(PRICING.operatorRewardSsl) * MICRO_PER_SSL;
}
