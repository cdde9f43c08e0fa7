/**
 * The model of a traffic chart, from the days the API answers (bytes as decimal
 * strings): one bar per UTC day of the window, stacked by series (a subscription's servers, or a
 * server's download and upload), scaled to the largest day.
 */

export interface TrafficSeries {
  key: string;
  label: string;
}

export interface TrafficSegment {
  key: string;
  bytes: number;
}

export interface TrafficBar {
  date: string;
  /** Position in the window (0: `from`). */
  slot: number;
  total: number;
  segments: TrafficSegment[];
}

export interface TrafficChartModel {
  dates: string[];
  series: TrafficSeries[];
  /** Days with traffic only. */
  bars: TrafficBar[];
  max: number;
  total: number;
}

/** One figure of one series on one day, as the API gives it. */
export interface TrafficPoint {
  date: string;
  series: string;
  bytes: string;
}

const DAY_MS = 86_400_000;

/** Every `YYYY-MM-DD` from `from` to `to` (UTC), both included. */
export function datesBetween(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY_MS) {
    dates.push(new Date(t).toISOString().slice(0, 10));
  }
  return dates;
}

export function trafficChartModel(
  from: string,
  to: string,
  series: readonly TrafficSeries[],
  points: readonly TrafficPoint[],
): TrafficChartModel {
  const dates = datesBetween(from, to);
  const slotOf = new Map(dates.map((date, slot) => [date, slot]));
  const byDate = new Map<string, Map<string, number>>();
  for (const point of points) {
    if (!slotOf.has(point.date)) continue;
    const bytes = Number(point.bytes);
    if (!(bytes > 0)) continue;
    const day = byDate.get(point.date) ?? new Map<string, number>();
    day.set(point.series, (day.get(point.series) ?? 0) + bytes);
    byDate.set(point.date, day);
  }
  const bars: TrafficBar[] = [...byDate.entries()]
    .map(([date, values]) => {
      const segments = series
        .filter((s) => values.has(s.key))
        .map((s) => ({ key: s.key, bytes: values.get(s.key)! }));
      const total = segments.reduce((sum, s) => sum + s.bytes, 0);
      return { date, slot: slotOf.get(date)!, total, segments };
    })
    .sort((a, b) => a.slot - b.slot);
  const max = Math.max(0, ...bars.map((b) => b.total));
  const total = bars.reduce((sum, b) => sum + b.total, 0);
  return { dates, series: [...series], bars, max, total };
}
