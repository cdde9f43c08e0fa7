import type { BillingCycle, ServerDropReason } from '@scn/proto';
import {
  type ReliabilityState,
  settleThreshold,
  viewReliability,
} from '../reliability/reliability';
import type { SubscriptionRecord } from './subscriptions.repository';
import { periodMs } from './subscription-pricing';

/**
 * When a server counts as unable to serve a subscription, and what the client gets
 * back. Pure functions: the database parts are in server-drop.service.ts.
 */

/**
 * A hidden server is dropped only once it has stayed hidden this long. One failed client-count
 * call takes a server at 100% to 90% (docs/product/states.md#subscription-and-reliability-states: -10), hidden for the three minutes three fresh
 * reports need to bring it back over 95%; dropping it then would cut a working connection and
 * lose the client the server for good over a blip. The wait costs the client nothing: the
 * refund counts from the moment the server went under 95%, not from the drop, so a period
 * renewed during a blip is given back whole if the blip lasts.
 */
export const HIDDEN_GRACE_MS = 3_600_000;

/**
 * A gap this long between two runs of the server drop job means the control plane (or its
 * database) was down: reports could not arrive, and every server's score decayed meanwhile
 * through no fault of its own (docs/product/states.md#subscription-and-reliability-states staleness: -10 after two silent hours).
 */
export const WATCH_GAP_MS = 5 * 60_000;

/** Why a server cannot serve, and since when (the refund covers paid time from then on). */
export interface Unable {
  reason: ServerDropReason;
  since: Date;
}

/**
 * Banned, or hidden now (docs/product/states.md#subscription-and-reliability-states: below 95% a server is hidden from the network; 14 days
 * later it is banned). `since` is when it went under 95% (exact even if no job ran then), for a
 * ban without that record the ban itself.
 */
export function unableNow(server: ReliabilityState, now: Date): Unable | null {
  const settled = settleThreshold(server, now);
  if (settled.bannedAt) {
    return { reason: 'banned', since: settled.belowThresholdSince ?? settled.bannedAt };
  }
  if (!viewReliability(settled, now).hidden) return null;
  return { reason: 'hidden', since: settled.belowThresholdSince ?? now };
}

/**
 * The rule for every drop (renewal, activation, billing change, the minute job): banned at once;
 * hidden once it has been hidden for HIDDEN_GRACE_MS of time the control plane was watching
 * (`watchingSince`, see watchingSince()), so an outage of ours drops nobody.
 */
export function unableToServe(
  server: ReliabilityState,
  now: Date,
  watchingSince: Date,
): Unable | null {
  const unable = unableNow(server, now);
  if (!unable || unable.reason === 'banned') return unable;
  const observedFrom = Math.max(unable.since.getTime(), watchingSince.getTime());
  return now.getTime() - observedFrom >= HIDDEN_GRACE_MS ? unable : null;
}

/**
 * Since when the control plane has been watching without a gap, from the server drop job's last
 * run: now when it has not run for WATCH_GAP_MS (or never).
 */
export function watchingSince(
  heartbeat: { lastRunAt: Date; watchingSince: Date } | null,
  now: Date,
): Date {
  if (!heartbeat || now.getTime() - heartbeat.lastRunAt.getTime() > WATCH_GAP_MS) return now;
  return heartbeat.watchingSince;
}

/**
 * The client's paid time left on a server that stopped serving at `since`, in ms, at most one
 * period. A client pause stops the paid clock (it resumes from where it stopped), so time after
 * the pause began is all still unused. A subscription paused because a billing change could not
 * be paid has no paid time (docs/product/constants.md#billing-and-the-economy: no refund of the remaining time on a change).
 */
export function unusedPaidMs(
  record: Pick<SubscriptionRecord, 'status' | 'pauseReason' | 'pausedAt' | 'expiresAt'> & {
    billingCycle: BillingCycle;
  },
  since: Date,
): number {
  if (record.status === 'deleted') return 0;
  if (record.status === 'paused' && record.pauseReason !== 'user') return 0;
  let from = since.getTime();
  if (record.status === 'paused' && record.pausedAt) {
    from = Math.min(from, record.pausedAt.getTime());
  }
  const unused = record.expiresAt.getTime() - from;
  return Math.min(periodMs(record.billingCycle), Math.max(0, unused));
}

/**
 * `amountMicro` x `unusedMs` / `periodMs` in integer micro-SSL, rounded up: the client never gets
 * less than its exact share (at most 1 micro-SSL more), and never more than `amountMicro`.
 */
export function proRataMicro(
  amountMicro: bigint,
  unusedMs: number,
  periodLengthMs: number,
): bigint {
  if (amountMicro <= 0n || unusedMs <= 0) return 0n;
  const unused = BigInt(Math.min(unusedMs, periodLengthMs));
  const period = BigInt(periodLengthMs);
  return (amountMicro * unused + period - 1n) / period;
}
