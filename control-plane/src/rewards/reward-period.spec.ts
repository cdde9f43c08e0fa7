import {
  addPeriods,
  lastEndedPeriod,
  monthsSinceGenesis,
  periodBounds,
  periodDate,
  periodOf,
} from './reward-period';

describe('reward periods', () => {
  it('should name the UTC month an instant falls in', () => {
    expect(periodOf(new Date('2026-10-31T23:59:59.999Z'))).toBe('2026-10');
    expect(periodOf(new Date('2026-11-01T00:00:00.000Z'))).toBe('2026-11');
  });

  it('should bound a period by the first instants of its month and the next, with its seconds', () => {
    const october = periodBounds('2026-10');
    expect(october.start.toISOString()).toBe('2026-10-01T00:00:00.000Z');
    expect(october.end.toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(october.seconds).toBe(31 * 86_400);
    expect(periodBounds('2028-02').seconds).toBe(29 * 86_400);
    expect(periodBounds('2026-02').seconds).toBe(28 * 86_400);
    expect(periodBounds('2026-12').end.toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('should refuse a name that is not YYYY-MM', () => {
    for (const bad of ['2026-13', '2026-00', '2026-1', '26-10', '2026-10-01', '']) {
      expect(() => periodBounds(bad)).toThrow(RangeError);
    }
  });

  it('should move across year boundaries', () => {
    expect(addPeriods('2026-01', -1)).toBe('2025-12');
    expect(addPeriods('2026-12', 1)).toBe('2027-01');
    expect(addPeriods('2026-05', 14)).toBe('2027-07');
    expect(lastEndedPeriod(new Date('2027-01-01T00:30:00Z'))).toBe('2026-12');
  });

  it('should count months since the genesis month (0 for it, negative before it)', () => {
    const genesis = new Date('2026-11-25T09:00:00Z');
    expect(monthsSinceGenesis(genesis, '2026-11')).toBe(0);
    expect(monthsSinceGenesis(genesis, '2026-12')).toBe(1);
    expect(monthsSinceGenesis(genesis, '2027-11')).toBe(12);
    expect(monthsSinceGenesis(genesis, '2026-10')).toBe(-1);
    // No genesis (a database before migration 2400): every month is month 0.
    expect(monthsSinceGenesis(null, '2026-10')).toBe(0);
  });

  it("should give the period's first day as a date", () => {
    expect(periodDate('2026-10')).toBe('2026-10-01');
  });
});
