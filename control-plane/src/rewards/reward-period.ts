/**
 * Reward periods: UTC calendar months, named `YYYY-MM`. A period's statement
 * covers [start, end); the job pays a period once it has ended.
 */

export const PERIOD_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

export interface PeriodBounds {
  period: string;
  /** The first instant of the month (UTC). */
  start: Date;
  /** The first instant of the next month: the period is [start, end). */
  end: Date;
  /** Seconds in the month (28 to 31 days): the denominator of pro rata. */
  seconds: number;
}

function name(year: number, monthIndex: number): string {
  return `${String(year).padStart(4, '0')}-${String(monthIndex + 1).padStart(2, '0')}`;
}

/** The period `at` falls in. */
export function periodOf(at: Date): string {
  return name(at.getUTCFullYear(), at.getUTCMonth());
}

/** The period's bounds; throws on a name that is not `YYYY-MM`. */
export function periodBounds(period: string): PeriodBounds {
  const match = PERIOD_PATTERN.exec(period);
  if (!match) throw new RangeError(`not a period (YYYY-MM): ${period}`);
  const year = Number(match[1]);
  const month = Number(match[2]) - 1;
  const start = new Date(Date.UTC(year, month, 1));
  const end = new Date(Date.UTC(year, month + 1, 1));
  return { period, start, end, seconds: (end.getTime() - start.getTime()) / 1000 };
}

/** The period `months` after `period` (negative: before). */
export function addPeriods(period: string, months: number): string {
  const { start } = periodBounds(period);
  return periodOf(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + months, 1)));
}

/** The last period that has ended at `now`: the one the monthly job pays. */
export function lastEndedPeriod(now: Date): string {
  return addPeriods(periodOf(now), -1);
}

/**
 * The period's month index in the reward cycle: months from the pool's genesis month (the
 * genesis transaction's, `genesisAt`) to `period`, 0 for the genesis month itself, negative
 * before it; 0 when there is no genesis. The one index `monthlyBudgetMicro` and `cycleMonth`
 * place a month in its 12-month cycle by: the monthly run, the dry run and the live economy
 * (GET /api/economics/live) all take it from here.
 */
export function monthsSinceGenesis(genesisAt: Date | null, period: string): number {
  if (!genesisAt) return 0;
  const { start } = periodBounds(period);
  return (
    (start.getUTCFullYear() - genesisAt.getUTCFullYear()) * 12 +
    (start.getUTCMonth() - genesisAt.getUTCMonth())
  );
}

/** The period's first day as the `date` PostgreSQL stores (`YYYY-MM-01`). */
export function periodDate(period: string): string {
  periodBounds(period);
  return `${period}-01`;
}
