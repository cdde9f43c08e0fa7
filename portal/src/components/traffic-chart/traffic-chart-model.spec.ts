import { describe, expect, it } from '@jest/globals';
import { formatBytes } from '../../lib/i18n/format';
import { datesBetween, trafficChartModel } from './traffic-chart-model';

describe('trafficChartModel', () => {
  const series = [
    { key: 'a', label: 'Alpha' },
    { key: 'b', label: 'Bravo' },
  ];

  it('should stack each day by series in series order, scale to the busiest day, and skip empty days', () => {
    const model = trafficChartModel('2026-11-01', '2026-11-03', series, [
      { date: '2026-11-03', series: 'b', bytes: '2500' },
      { date: '2026-11-01', series: 'a', bytes: '1000' },
      { date: '2026-11-03', series: 'a', bytes: '500' },
      { date: '2026-11-03', series: 'a', bytes: '0' },
      // Outside the window: ignored.
      { date: '2026-10-31', series: 'a', bytes: '99999' },
    ]);
    expect(model.dates).toEqual(['2026-11-01', '2026-11-02', '2026-11-03']);
    expect(model.bars).toEqual([
      {
        date: '2026-11-01',
        slot: 0,
        total: 1000,
        segments: [{ key: 'a', bytes: 1000 }],
      },
      {
        date: '2026-11-03',
        slot: 2,
        total: 3000,
        segments: [
          { key: 'a', bytes: 500 },
          { key: 'b', bytes: 2500 },
        ],
      },
    ]);
    expect(model.max).toBe(3000);
    expect(model.total).toBe(4000);
  });

  it('should say there was no traffic when no day has any', () => {
    const model = trafficChartModel('2026-11-01', '2026-11-02', series, []);
    expect(model.bars).toEqual([]);
    expect(model.total).toBe(0);
  });

  it('should list the days across a month end and format bytes in 1,000-based units', () => {
    expect(datesBetween('2026-02-27', '2026-03-01')).toEqual([
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
    ]);
    expect(formatBytes(999, 'en')).toBe('999B');
    expect(formatBytes(1_500_000, 'en')).toBe('1.5 MB');
    expect(formatBytes(2_000_000_000_000, 'en')).toBe('2.0 TB');
    expect(formatBytes(1_500_000, 'ru')).toBe('1,5 МБ');
    expect(formatBytes(999, 'fa')).toBe('۹۹۹ بایت');
  });
});
