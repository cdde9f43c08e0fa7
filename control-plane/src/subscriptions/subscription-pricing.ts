import { type BillingCycle, type PauseAllowance, PRICING, sslToMicro } from '@scn/proto';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** docs/product/constants.md#billing-and-the-economy: monthly 10 SSL per server (valid 30 days); premium servers 10 SSL each (docs/product/constants.md#market-prices-and-limits). */
const MONTHLY_PER_SERVER_MICRO = sslToMicro(PRICING.monthlyPerServerSsl);
const PREMIUM_PER_SERVER_MICRO = sslToMicro(PRICING.premiumPerServerSsl);
/** docs/product/constants.md#billing-and-the-economy: hourly is 0.1 SSL an hour, paid upfront in blocks of 100 hours: 10 SSL per server. */
const HOURLY_PER_HOUR_MICRO = sslToMicro(PRICING.hourlyPerServerSsl);
const HOURLY_BLOCK_PER_SERVER_MICRO = HOURLY_PER_HOUR_MICRO * BigInt(PRICING.hourlyBlockHours);
/** docs/product/constants.md#market-prices-and-limits: 10 SSL per non-admin server to its operator, frozen 60 days. */
export const OPERATOR_REWARD_MICRO = sslToMicro(PRICING.operatorRewardSsl);
export const OPERATOR_REWARD_FROZEN_MS = PRICING.operatorRewardFrozenDays * DAY_MS;

export interface PricedServer {
  /** Owned by the platform operator account: its revenue goes to the platform. */
  premium: boolean;
  ownerUuid: string;
  /** 'manual': added without the agent, always free and never rewarded (freeServer). */
  source: 'agent' | 'manual';
}

/**
 * A server added without the agent is free (docs/product/records.md#market-and-wallet-records price 0) and earns its
 * operator nothing: all its clients share the operator's one UUID, which cannot be revoked when
 * a subscription ends, so there is nothing to sell. Paying and earning need the agent.
 */
export function freeServer(server: Pick<PricedServer, 'source'>): boolean {
  return server.source === 'manual';
}

/** Length of one paid period: 30 days monthly, 100 hours hourly (docs/product/constants.md#billing-and-the-economy). */
export function periodMs(cycle: BillingCycle): number {
  return cycle === 'monthly'
    ? PRICING.monthlyValidityDays * DAY_MS
    : PRICING.hourlyBlockHours * HOUR_MS;
}

/** docs/product/calls.md#market-and-account-calls duration '1month'; hourly blocks are '100hours'. */
export function periodDuration(cycle: BillingCycle): string {
  return cycle === 'monthly' ? '1month' : `${PRICING.hourlyBlockHours}hours`;
}

/** What one period of these servers costs (0 in the launch period). */
export function periodPriceMicro(
  cycle: BillingCycle,
  servers: readonly PricedServer[],
  free: boolean,
): bigint {
  if (free) return 0n;
  let total = 0n;
  for (const server of servers) {
    if (freeServer(server)) continue;
    if (cycle === 'hourly') total += HOURLY_BLOCK_PER_SERVER_MICRO;
    else total += server.premium ? PREMIUM_PER_SERVER_MICRO : MONTHLY_PER_SERVER_MICRO;
  }
  return total;
}

/** docs/product/records.md#dashboard-records hourlyPrice: 0.1 SSL per paid server per hour (0 in the launch period). */
export function hourlyPriceMicro(servers: readonly PricedServer[], free: boolean): bigint {
  if (free) return 0n;
  return HOURLY_PER_HOUR_MICRO * BigInt(servers.filter((server) => !freeServer(server)).length);
}

/**
 * Who earns a paid period (docs/product/constants.md#billing-and-the-economy: 100% of client payments go to the operators): 10 SSL per
 * non-premium server to its operator; premium servers' share stays with the platform; free
 * servers (added without the agent) earn nothing. Keyed by operator, in a stable order.
 */
export function operatorRewards(
  servers: readonly PricedServer[],
): Array<{ ownerUuid: string; amountMicro: bigint; serverCount: number }> {
  const byOwner = new Map<string, { amountMicro: bigint; serverCount: number }>();
  for (const server of servers) {
    if (server.premium || freeServer(server)) continue;
    const entry = byOwner.get(server.ownerUuid) ?? { amountMicro: 0n, serverCount: 0 };
    entry.amountMicro += OPERATOR_REWARD_MICRO;
    entry.serverCount += 1;
    byOwner.set(server.ownerUuid, entry);
  }
  return [...byOwner.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([ownerUuid, entry]) => ({ ownerUuid, ...entry }));
}

/** docs/product/constants.md#billing-and-the-economy pauses: hourly 2 per day up to 8 h each; monthly 1 free 7-day pause per 6 months. */
export const PAUSE_RULES: Record<
  BillingCycle,
  {
    perWindow: number;
    maxPauseMs: number;
    windowStart: (now: Date) => Date;
    windowEnd: (start: Date) => Date;
  }
> = {
  hourly: {
    perWindow: PRICING.hourlyPausesPerDay,
    maxPauseMs: PRICING.hourlyPauseMaxHours * HOUR_MS,
    // "A day" is the last 24 hours, the same for every replica and time zone.
    windowStart: (now) => new Date(now.getTime() - DAY_MS),
    windowEnd: (start) => new Date(start.getTime() + DAY_MS),
  },
  monthly: {
    perWindow: 1,
    maxPauseMs: PRICING.monthlyFreePauseDays * DAY_MS,
    windowStart: (now) => addMonths(now, -PRICING.monthlyFreePauseEveryMonths),
    windowEnd: (start) => addMonths(start, PRICING.monthlyFreePauseEveryMonths),
  },
};

function addMonths(date: Date, months: number): Date {
  const result = new Date(date.getTime());
  result.setUTCMonth(result.getUTCMonth() + months);
  return result;
}

/**
 * What the allowance leaves, given the start times of the client's pauses (any age). A pause
 * the allowance does not cover is refused; it is never charged.
 */
export function pauseAllowance(
  cycle: BillingCycle,
  pauseStarts: readonly Date[],
  now: Date,
): PauseAllowance {
  const rule = PAUSE_RULES[cycle];
  const since = rule.windowStart(now).getTime();
  const inWindow = pauseStarts
    .filter((start) => start.getTime() > since)
    .sort((a, b) => a.getTime() - b.getTime());
  const pausesLeft = Math.max(0, rule.perWindow - inWindow.length);
  // The oldest pause in the window is the first to free up again.
  const oldest = inWindow[inWindow.length - rule.perWindow];
  return {
    pausesLeft,
    pausesPerWindow: rule.perWindow,
    maxPauseHours: rule.maxPauseMs / HOUR_MS,
    nextPauseAvailableAt: pausesLeft === 0 && oldest ? rule.windowEnd(oldest).toISOString() : null,
  };
}
