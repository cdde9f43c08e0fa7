import type { ReliabilityDay, ServerReliabilityResponse } from '@scn/proto';

/** Why a day's reliability dropped, as the chart marks it and the legend names it. */
export type DropKind = 'stale' | 'failed' | 'malformed';

export interface DropReason {
  kind: DropKind;
  /** Seconds of stale reports, or how many failed client counts or malformed reports. */
  amount: number;
}

/** One day of the chart: its place on the x axis, its figures and why it dropped. */
export interface ChartDay {
  date: string;
  /** 0 for the first day of the range. */
  slot: number;
  average: number;
  min: number;
  /** Seconds below 95% (hidden from the market, rewards frozen); `below` when any. */
  belowSeconds: number;
  below: boolean;
  reasons: DropReason[];
}

/** What the chart sums up in a sentence (the SVG's description). */
export interface ChartSummary {
  /** The day with the lowest figure, null without data. */
  lowest: { date: string; min: number } | null;
  belowDays: number;
  dropDays: number;
}

export interface ChartModel {
  /** Every date of the range, oldest first (days without data have no ChartDay). */
  dates: string[];
  days: ChartDay[];
  threshold: number;
  summary: ChartSummary;
}

/** The legend's order of the drop reasons. */
export const DROP_KINDS: readonly DropKind[] = ['stale', 'failed', 'malformed'];

const DAY_MS = 86_400_000;

/** Seconds as hours to one decimal (3_600 -> 1, 180 -> 0.1). */
export function hoursOf(seconds: number): number {
  return Math.round(seconds / 360) / 10;
}

/** The reasons of a day's drop, in the legend's order; none for a day without one. */
export function dropReasons(day: ReliabilityDay): DropReason[] {
  const amounts: Record<DropKind, number> = {
    stale: day.reasons.staleSeconds,
    failed: day.reasons.failedClientCounts,
    malformed: day.reasons.malformedReports,
  };
  return DROP_KINDS.filter((kind) => amounts[kind] > 0).map((kind) => ({
    kind,
    amount: amounts[kind],
  }));
}

/** The dates from `from` to `to` (YYYY-MM-DD, both included). */
export function datesBetween(from: string, to: string): string[] {
  const dates: string[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= end; at += DAY_MS) {
    dates.push(new Date(at).toISOString().slice(0, 10));
  }
  return dates;
}

/** The chart of a server's reliability response: days placed on the range, reasons, summary (in figures: the component words them). */
export function reliabilityChartModel(
  response: Pick<ServerReliabilityResponse, 'from' | 'to' | 'days' | 'threshold'>,
): ChartModel {
  const dates = datesBetween(response.from, response.to);
  const slotOf = new Map(dates.map((date, slot) => [date, slot]));
  const days: ChartDay[] = [];
  for (const day of response.days) {
    const slot = slotOf.get(day.date);
    if (slot === undefined) continue;
    days.push({
      date: day.date,
      slot,
      average: day.averageReliability,
      min: day.minReliability,
      belowSeconds: day.belowSeconds,
      below: day.belowSeconds > 0,
      reasons: dropReasons(day),
    });
  }
  return { dates, days, threshold: response.threshold, summary: summaryOf(days) };
}

function summaryOf(days: readonly ChartDay[]): ChartSummary {
  const lowest =
    days.length === 0 ? null : days.reduce((low, day) => (day.min < low.min ? day : low));
  return {
    lowest: lowest && { date: lowest.date, min: lowest.min },
    belowDays: days.filter((day) => day.below).length,
    dropDays: days.filter((day) => day.reasons.length > 0).length,
  };
}
