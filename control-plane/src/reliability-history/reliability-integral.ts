import { currentReliability, RELIABILITY, type ReliabilityState } from '../reliability/reliability';

const SECOND_MS = 1000;
const HOUR_MS = 3_600_000;
export const DAY_SECONDS = 86_400;
/**
 * The staleness penalty depends on the report's age only through comparisons with whole hours
 * (`stalenessPenalty`: more than an hour, the count of full hours, more than 96 hours), so its
 * steps fall at the report's instant plus k hours, k = 1..97; past 97 hours it no longer moves.
 */
const LAST_STEP_HOURS = 97;

/** One server's reliability over the part of one UTC day that an interval covers. */
export interface ReliabilityDayFacts {
  /** The UTC day, `YYYY-MM-DD`. */
  day: string;
  /** Seconds of the interval within the day. */
  observedSeconds: number;
  /** The sum over those seconds of the score (0 to 100): time-weighted average x seconds. */
  reliabilitySeconds: number;
  /** Seconds with a score below `RELIABILITY.hideBelow` (95). */
  belowSeconds: number;
  /** Seconds with the last report older than `RELIABILITY.staleAfterMs` (or no report at all). */
  staleSeconds: number;
  /** The lowest score over those seconds. */
  minReliability: number;
}

/**
 * The score of a server over `[from, to)`, split into UTC days.
 *
 * Time is taken in whole seconds: the interval's ends are rounded down to the second, and the
 * score of second `s` is `currentReliability(state, s)`, the score at its start. The sum is then
 * exact for that step function and an integer. The true score steps at the report's instant plus
 * whole hours, inside some second; so each of its (at most 97) steps is placed less than a second
 * late or early, and nothing else differs.
 *
 * Between two seconds the score only moves where staleness steps, so instead of summing second
 * by second it is summed piece by piece: the pieces' ends are the day boundaries and, for every
 * step k = 1..97, the first second whose age is at least k hours and the first whose age is more
 * than k hours (a superset of where anything can change; an end that changes nothing only splits
 * a piece in two). A report never made scores 0 and is stale throughout.
 *
 * `state` is the state in force over the whole interval: the caller integrates up to a report
 * with the state before it (see ReliabilityHistoryService for the bound when it cannot).
 */
export function integrateReliability(
  state: ReliabilityState,
  from: Date,
  to: Date,
): ReliabilityDayFacts[] {
  const start = Math.floor(from.getTime() / SECOND_MS);
  const end = Math.floor(to.getTime() / SECOND_MS);
  if (end <= start) return [];
  const cuts = pieceEnds(state, start, end);
  const days: ReliabilityDayFacts[] = [];
  let current: ReliabilityDayFacts | null = null;
  let currentDay = NaN;
  for (let i = 0, a = start; a < end; i += 1) {
    const b = cuts[i] ?? end;
    const dayIndex = Math.floor(a / DAY_SECONDS);
    if (dayIndex !== currentDay) {
      current = {
        day: new Date(dayIndex * DAY_SECONDS * SECOND_MS).toISOString().slice(0, 10),
        observedSeconds: 0,
        reliabilitySeconds: 0,
        belowSeconds: 0,
        staleSeconds: 0,
        minReliability: RELIABILITY.max,
      };
      currentDay = dayIndex;
      days.push(current);
    }
    const seconds = b - a;
    const instant = new Date(a * SECOND_MS);
    const score = currentReliability(state, instant);
    current!.observedSeconds += seconds;
    current!.reliabilitySeconds += score * seconds;
    if (score < RELIABILITY.hideBelow) current!.belowSeconds += seconds;
    if (isStale(state, instant)) current!.staleSeconds += seconds;
    current!.minReliability = Math.min(current!.minReliability, score);
    a = b;
  }
  return days;
}

/** The report is older than an hour, or there never was one (as `viewReliability` says). */
function isStale(state: ReliabilityState, at: Date): boolean {
  return (
    state.lastReportAt === null ||
    at.getTime() - state.lastReportAt.getTime() > RELIABILITY.staleAfterMs
  );
}

/** Every second in (start, end) where a new piece begins, ascending, without repeats. */
function pieceEnds(state: ReliabilityState, start: number, end: number): number[] {
  const cuts: number[] = [];
  for (
    let day = (Math.floor(start / DAY_SECONDS) + 1) * DAY_SECONDS;
    day < end;
    day += DAY_SECONDS
  ) {
    cuts.push(day);
  }
  const last = state.lastReportAt?.getTime();
  if (last !== undefined) {
    // Only the steps near the interval can fall inside it (a minute's interval usually has none).
    const firstK = Math.max(1, Math.floor((start * SECOND_MS - last) / HOUR_MS));
    const lastK = Math.min(LAST_STEP_HOURS, Math.ceil((end * SECOND_MS - last) / HOUR_MS));
    for (let k = firstK; k <= lastK; k += 1) {
      const stepMs = last + k * HOUR_MS;
      // First second with age >= k hours, and first with age > k hours.
      for (const cut of [Math.ceil(stepMs / SECOND_MS), Math.floor(stepMs / SECOND_MS) + 1]) {
        if (cut > start && cut < end) cuts.push(cut);
      }
    }
  }
  cuts.sort((a, b) => a - b);
  return cuts.filter((cut, i) => i === 0 || cut !== cuts[i - 1]);
}
