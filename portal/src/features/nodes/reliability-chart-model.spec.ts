import { describe, expect, it } from '@jest/globals';
import type { ReliabilityDay } from '@scn/proto';
import {
  datesBetween,
  dropReasons,
  hoursOf,
  reliabilityChartModel,
} from './reliability-chart-model';

function day(date: string, overrides: Partial<ReliabilityDay> = {}): ReliabilityDay {
  return {
    date,
    observedSeconds: 86_400,
    averageReliability: 100,
    minReliability: 100,
    belowSeconds: 0,
    reasons: { staleSeconds: 0, failedClientCounts: 0, malformedReports: 0 },
    ...overrides,
  };
}

describe('datesBetween', () => {
  it('should list every date of the range when it crosses a month end', () => {
    expect(datesBetween('2026-10-30', '2026-11-02')).toEqual([
      '2026-10-30',
      '2026-10-31',
      '2026-11-01',
      '2026-11-02',
    ]);
    expect(datesBetween('2026-11-01', '2026-11-01')).toEqual(['2026-11-01']);
  });
});

describe('dropReasons', () => {
  it('should name each reason with its amount when the day dropped', () => {
    expect(
      dropReasons(
        day('2026-11-01', {
          reasons: { staleSeconds: 9_000, failedClientCounts: 1, malformedReports: 2 },
        }),
      ),
    ).toEqual([
      { kind: 'stale', amount: 9_000 },
      { kind: 'failed', amount: 1 },
      { kind: 'malformed', amount: 2 },
    ]);
  });

  it('should give none when the day had no drop', () => {
    expect(dropReasons(day('2026-11-01'))).toEqual([]);
  });
});

describe('hoursOf', () => {
  it('should round to a tenth of an hour', () => {
    expect(hoursOf(3_600)).toBe(1);
    expect(hoursOf(7_199)).toBe(2);
    expect(hoursOf(180)).toBe(0.1);
  });
});

describe('reliabilityChartModel', () => {
  it('should place the days with data on the range and leave the others empty', () => {
    const model = reliabilityChartModel({
      from: '2026-10-27',
      to: '2026-11-25',
      threshold: 95,
      days: [
        day('2026-11-01'),
        day('2026-11-24', {
          averageReliability: 78.5,
          minReliability: 70,
          belowSeconds: 7_200,
          reasons: { staleSeconds: 3_600, failedClientCounts: 1, malformedReports: 0 },
        }),
        day('2026-10-01'), // outside the range: not drawn
      ],
    });
    expect(model.dates).toHaveLength(30);
    expect(model.days.map((d) => [d.date, d.slot, d.below])).toEqual([
      ['2026-11-01', 5, false],
      ['2026-11-24', 28, true],
    ]);
    expect(model.days[1]!.reasons).toEqual([
      { kind: 'stale', amount: 3_600 },
      { kind: 'failed', amount: 1 },
    ]);
    expect(model.summary).toEqual({
      lowest: { date: '2026-11-24', min: 70 },
      belowDays: 1,
      dropDays: 1,
    });
  });

  it('should say there is no history when no day has data', () => {
    const model = reliabilityChartModel({
      from: '2026-11-19',
      to: '2026-11-25',
      threshold: 95,
      days: [],
    });
    expect(model.dates).toHaveLength(7);
    expect(model.summary).toEqual({ lowest: null, belowDays: 0, dropDays: 0 });
  });
});
