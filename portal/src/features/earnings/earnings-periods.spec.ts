import { describe, expect, it } from '@jest/globals';
import {
  isPeriod,
  MAX_PERIODS,
  periodChoices,
  periodLabel,
  periodOf,
  shiftPeriod,
} from './earnings-periods';

describe('periodOf', () => {
  it('should give the UTC month of an instant', () => {
    expect(periodOf('2026-03-31T23:59:59.999Z')).toBe('2026-03');
    expect(periodOf('2026-04-01T00:00:00.000Z')).toBe('2026-04');
    // 23:30 on 31 March in New York is already April in UTC.
    expect(periodOf('2026-03-31T23:30:00-04:00')).toBe('2026-04');
  });

  it('should give null for what is not an instant', () => {
    expect(periodOf('soon')).toBeNull();
  });
});

describe('shiftPeriod', () => {
  it.each([
    ['2026-03', 1, '2026-04'],
    ['2026-12', 1, '2027-01'],
    ['2026-01', -1, '2025-12'],
    ['2026-03', -15, '2024-12'],
    ['2026-03', 0, '2026-03'],
  ])('should move %s by %i months to %s', (period, months, expected) => {
    expect(shiftPeriod(period, months)).toBe(expected);
  });

  it('should refuse what is not a period', () => {
    expect(() => shiftPeriod('2026-13', 1)).toThrow('not a period');
  });
});

describe('periodChoices', () => {
  it('should list the months from the first server to the current one, newest first', () => {
    expect(periodChoices('2025-11-20T10:00:00Z', '2026-02')).toEqual([
      '2026-02',
      '2026-01',
      '2025-12',
      '2025-11',
    ]);
  });

  it('should list only the current month without a server, or with one enrolled this month', () => {
    expect(periodChoices(null, '2026-02')).toEqual(['2026-02']);
    expect(periodChoices('2026-02-27T00:00:00Z', '2026-02')).toEqual(['2026-02']);
  });

  it('should still list the current month when the first server seems later (clock skew)', () => {
    expect(periodChoices('2026-05-01T00:00:00Z', '2026-02')).toEqual(['2026-02']);
  });

  it('should stop at ten years of months', () => {
    const choices = periodChoices('1990-01-01T00:00:00Z', '2026-02');
    expect(choices).toHaveLength(MAX_PERIODS);
    expect(choices[MAX_PERIODS - 1]).toBe('2016-03');
  });
});

describe('periodLabel and isPeriod', () => {
  it('should name the month', () => {
    expect(periodLabel('2026-03')).toBe('March 2026');
    expect(periodLabel('2025-12')).toBe('December 2025');
    expect(periodLabel('nonsense')).toBe('nonsense');
    expect(periodLabel('2026-03', 'fa')).toBe('مارس ۲۰۲۶');
    expect(periodLabel('2026-03', 'zh')).toBe('2026年3月');
  });

  it('should know a period when it sees one', () => {
    expect(isPeriod('2026-03')).toBe(true);
    expect(isPeriod('2026-3')).toBe(false);
    expect(isPeriod('2026-00')).toBe(false);
  });
});
