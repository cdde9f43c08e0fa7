import type { ReliabilityDay, ServerReliabilityResponse } from '@scn/proto';

/** Why a day's reliability dropped (issue 18 §1), as the chart marks it and the legend names it. */
export type DropKind = 'stale' | 'failed' | 'malformed';

export interface DropReason {
  kind: DropKind;
  /** "stale reports for 2.5 h", "1 failed client count", "2 malformed reports". */
  text: string;
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
  /** One line for a tooltip or a screen reader. */
  label: string;
}

export interface ChartModel {
  /** Every date of the range, oldest first (days without data have no ChartDay). */
  dates: string[];
  days: ChartDay[];
  threshold: number;
  /** What the chart shows, in a sentence (the SVG's description). */
  summary: string;
}

export const DROP_LEGEND: Record<DropKind, string> = {
  stale: 'Stale reports (none for over an hour)',
  failed: 'Failed client counts',
  malformed: 'Malformed reports',
};

const DAY_MS = 86_400_000;

/** Hours to one decimal: "0.5 h", "24 h". */
export function formatHours(seconds: number): string {
  const hours = Math.round(seconds / 360) / 10;
  return `${hours} h`;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** The reasons of a day's drop, in the legend's order; none for a day without one. */
export function dropReasons(day: ReliabilityDay): DropReason[] {
  const reasons: DropReason[] = [];
  if (day.reasons.staleSeconds > 0) {
    reasons.push({
      kind: 'stale',
      text: `stale reports for ${formatHours(day.reasons.staleSeconds)}`,
    });
  }
  if (day.reasons.failedClientCounts > 0) {
    reasons.push({
      kind: 'failed',
      text: plural(day.reasons.failedClientCounts, 'failed client count', 'failed client counts'),
    });
  }
  if (day.reasons.malformedReports > 0) {
    reasons.push({
      kind: 'malformed',
      text: plural(day.reasons.malformedReports, 'malformed report', 'malformed reports'),
    });
  }
  return reasons;
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

/** The chart of a server's reliability response: days placed on the range, reasons, summary. */
export function reliabilityChartModel(
  response: Pick<ServerReliabilityResponse, 'from' | 'to' | 'days' | 'threshold'>,
): ChartModel {
  const dates = datesBetween(response.from, response.to);
  const slotOf = new Map(dates.map((date, slot) => [date, slot]));
  const days: ChartDay[] = [];
  for (const day of response.days) {
    const slot = slotOf.get(day.date);
    if (slot === undefined) continue;
    const reasons = dropReasons(day);
    const below = day.belowSeconds > 0;
    const parts = [
      `${day.date}: average ${day.averageReliability}%, lowest ${day.minReliability}%`,
    ];
    if (below) parts.push(`${formatHours(day.belowSeconds)} below ${response.threshold}%`);
    if (reasons.length > 0) parts.push(`dropped by ${reasons.map((r) => r.text).join(', ')}`);
    days.push({
      date: day.date,
      slot,
      average: day.averageReliability,
      min: day.minReliability,
      belowSeconds: day.belowSeconds,
      below,
      reasons,
      label: parts.join('; '),
    });
  }
  return { dates, days, threshold: response.threshold, summary: summaryOf(dates, days) };
}

function summaryOf(dates: readonly string[], days: readonly ChartDay[]): string {
  const range = `${dates.length} days to ${dates[dates.length - 1] ?? ''}`;
  if (days.length === 0) return `No reliability history in the last ${range}.`;
  const lowest = days.reduce((low, day) => (day.min < low.min ? day : low));
  const belowDays = days.filter((day) => day.below).length;
  const dropDays = days.filter((day) => day.reasons.length > 0).length;
  return (
    `Daily average reliability over the last ${range}: ${days.length} ${days.length === 1 ? 'day' : 'days'} with data, ` +
    `lowest ${lowest.min}% on ${lowest.date}, ${plural(belowDays, 'day', 'days')} below the threshold, ` +
    `${plural(dropDays, 'day', 'days')} with drops.`
  );
}
