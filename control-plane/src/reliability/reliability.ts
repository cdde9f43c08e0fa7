import { ECONOMICS } from '@scn/proto';

/**
 * Server reliability (docs/product/states.md#subscription-and-reliability-states), computed by the control plane only, from reports and the clock.
 *
 * The score is stored as it was at the last report (`reliabilityAtReport`); what it is *now* is a
 * pure function of that value and the report's age. So a node that stops reporting decays with
 * nobody watching, every replica computes the same number, and a periodic job that persists it is
 * idempotent for its period.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export const RELIABILITY = {
  max: 100,
  /** docs/product/states.md#subscription-and-reliability-states: +2 per fresh report, up to 100. */
  freshReportGain: 2,
  /** docs/product/states.md#subscription-and-reliability-states: a failed client-count call -10, a malformed one -5. */
  clientCountFailedPenalty: 10,
  malformedReportPenalty: 5,
  /** docs/product/states.md#subscription-and-reliability-states: a report older than this makes the server unavailable. */
  staleAfterMs: HOUR_MS,
  /** 1 to 24 hours: -5 per full hour, capped at 20. */
  perHourPenalty: 5,
  firstDayPenaltyCap: 20,
  /** 24 to 96 hours: (hours over 24) x 10 + 20, capped at the current reliability. */
  afterDayPerHourPenalty: 10,
  zeroAfterMs: 96 * HOUR_MS,
  /** docs/product/states.md#subscription-and-reliability-states: available at 50 or more. */
  availableAt: ECONOMICS.availableAtReliability,
  /** docs/product/states.md#subscription-and-reliability-states, docs/product/constants.md#billing-and-the-economy: below 95% hidden and frozen; 14 days to recover, else banned. */
  hideBelow: ECONOMICS.hideBelowReliabilityPercent,
  recoveryMs: ECONOMICS.recoveryDays * DAY_MS,
  /**
   * Reports come every 60 s; one sooner than this earns nothing, so an agent cannot pump its
   * score by reporting faster than the protocol asks.
   */
  minCreditIntervalMs: 50_000,
} as const;

export interface ReliabilityState {
  /** The score right after the last report was applied, 0 to 100. */
  reliabilityAtReport: number;
  /** When the last report was applied (null: never reported). */
  lastReportAt: Date | null;
  /** When the last report that earned the fresh-report gain was applied. */
  lastCreditedAt: Date | null;
  /** Since when the score has been below the hide threshold (null: it is not). */
  belowThresholdSince: Date | null;
  /** Set once the 14 days to recover have run out; a banned node stays banned. */
  bannedAt: Date | null;
}

export type ReportQuality = 'ok' | 'client_count_failed' | 'malformed';

export interface ReliabilityView {
  /** The score now, after staleness. */
  reliability: number;
  /** docs/product/states.md#subscription-and-reliability-states: fresh report and reliability of 50 or more. */
  available: boolean;
  /** docs/product/states.md#subscription-and-reliability-states: the report is older than an hour. */
  stale: boolean;
  /** Hidden from the market and rewards frozen: below 95% (or banned). */
  hidden: boolean;
  banned: boolean;
  /** When a node below the threshold will be banned unless it recovers. */
  banDeadline: Date | null;
}

/** A node that has just enrolled: docs/product/input-rules.md#dashboard-input adds a server with reliability 100. */
export function initialReliability(now: Date): ReliabilityState {
  return {
    reliabilityAtReport: RELIABILITY.max,
    lastReportAt: now,
    lastCreditedAt: null,
    belowThresholdSince: null,
    bannedAt: null,
  };
}

/** How many points the score has lost to staleness after `ageMs` without a report. */
export function stalenessPenalty(reliabilityAtReport: number, ageMs: number): number {
  if (ageMs <= RELIABILITY.staleAfterMs) return 0;
  if (ageMs > RELIABILITY.zeroAfterMs) return reliabilityAtReport;
  const hours = Math.floor(ageMs / HOUR_MS);
  if (hours < 24)
    return Math.min(RELIABILITY.firstDayPenaltyCap, hours * RELIABILITY.perHourPenalty);
  const penalty =
    (hours - 24) * RELIABILITY.afterDayPerHourPenalty + RELIABILITY.firstDayPenaltyCap;
  return Math.min(reliabilityAtReport, penalty);
}

/** The score at `now`: the score at the last report, less what staleness has taken since. */
export function currentReliability(state: ReliabilityState, now: Date): number {
  if (state.lastReportAt === null) return 0;
  const age = Math.max(0, now.getTime() - state.lastReportAt.getTime());
  return clamp(state.reliabilityAtReport - stalenessPenalty(state.reliabilityAtReport, age));
}

/** Applies one report received at `now`. */
export function applyReport(
  state: ReliabilityState,
  quality: ReportQuality,
  now: Date,
): ReliabilityState {
  const before = currentReliability(state, now);
  let after = before;
  let lastCreditedAt = state.lastCreditedAt;
  if (quality === 'client_count_failed') {
    after = before - RELIABILITY.clientCountFailedPenalty;
  } else if (quality === 'malformed') {
    after = before - RELIABILITY.malformedReportPenalty;
  } else if (
    lastCreditedAt === null ||
    now.getTime() - lastCreditedAt.getTime() >= RELIABILITY.minCreditIntervalMs
  ) {
    after = before + RELIABILITY.freshReportGain;
    lastCreditedAt = now;
  }
  return settleThreshold(
    { ...state, reliabilityAtReport: clamp(after), lastReportAt: now, lastCreditedAt },
    now,
  );
}

/**
 * Moves the network-level lifecycle on to `now` (docs/product/states.md#subscription-and-reliability-states): start or clear the 14-day recovery
 * window, and ban when it has run out. Run it on every report and from the periodic job.
 */
export function settleThreshold(state: ReliabilityState, now: Date): ReliabilityState {
  if (state.bannedAt) return state;
  const score = currentReliability(state, now);
  if (score >= RELIABILITY.hideBelow)
    return state.belowThresholdSince ? { ...state, belowThresholdSince: null } : state;
  const since = state.belowThresholdSince ?? droppedBelowAt(state, now);
  if (now.getTime() - since.getTime() >= RELIABILITY.recoveryMs) {
    return { ...state, belowThresholdSince: since, bannedAt: now };
  }
  return state.belowThresholdSince ? state : { ...state, belowThresholdSince: since };
}

export function viewReliability(state: ReliabilityState, now: Date): ReliabilityView {
  const reliability = currentReliability(state, now);
  const stale =
    state.lastReportAt === null ||
    now.getTime() - state.lastReportAt.getTime() > RELIABILITY.staleAfterMs;
  const banned = state.bannedAt !== null;
  return {
    reliability,
    stale,
    available: !banned && !stale && reliability >= RELIABILITY.availableAt,
    hidden: banned || reliability < RELIABILITY.hideBelow,
    banned,
    banDeadline:
      !banned && state.belowThresholdSince
        ? new Date(state.belowThresholdSince.getTime() + RELIABILITY.recoveryMs)
        : null,
  };
}

/**
 * When the score went under the hide threshold: at the last report if that report left it there,
 * else at the hour boundary where staleness took it under. Exact even if no job ran at the time.
 */
function droppedBelowAt(state: ReliabilityState, now: Date): Date {
  const last = state.lastReportAt;
  if (last === null || state.reliabilityAtReport < RELIABILITY.hideBelow) return last ?? now;
  // The penalty only changes at hour boundaries (at the boundary, or just after it).
  for (let hours = 1; hours <= 97; hours += 1) {
    for (const age of [hours * HOUR_MS, hours * HOUR_MS + 1]) {
      if (
        state.reliabilityAtReport - stalenessPenalty(state.reliabilityAtReport, age) <
        RELIABILITY.hideBelow
      ) {
        return new Date(Math.min(now.getTime(), last.getTime() + age));
      }
    }
  }
  return now;
}

function clamp(value: number): number {
  return Math.min(RELIABILITY.max, Math.max(0, value));
}
