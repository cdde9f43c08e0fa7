import { toReliabilityDay } from './reliability-history-view';

describe('toReliabilityDay', () => {
  it('should average over the observed seconds to one decimal when the day is partial', () => {
    const day = toReliabilityDay({
      day: '2026-11-01',
      observedSeconds: 3 * 3600,
      // 1 h at 100, 1 h at 95, 1 h at 90: 95.0; 1,200 more is a ninth of a point: 95.1.
      reliabilitySeconds: 3600 * (100 + 95 + 90) + 1200,
      minReliability: 90,
      belowSeconds: 3600,
      staleSeconds: 7200,
      failedReports: 2,
      malformedReports: 1,
    });
    expect(day).toEqual({
      date: '2026-11-01',
      observedSeconds: 10_800,
      averageReliability: 95.1,
      minReliability: 90,
      belowSeconds: 3600,
      reasons: { staleSeconds: 7200, failedClientCounts: 2, malformedReports: 1 },
    });
  });

  it('should round half up to one decimal when the average falls between', () => {
    const day = (reliabilitySeconds: number) =>
      toReliabilityDay({
        day: '2026-11-01',
        observedSeconds: 20,
        reliabilitySeconds,
        minReliability: 0,
        belowSeconds: 0,
        staleSeconds: 0,
        failedReports: 0,
        malformedReports: 0,
      }).averageReliability;
    expect(day(20 * 100)).toBe(100);
    expect(day(20 * 99 + 1)).toBe(99.1); // 99.05
    expect(day(20 * 99 + 0)).toBe(99);
  });
});
