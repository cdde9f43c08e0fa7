import { earningsQuerySchema, firstIssueMessage, REWARDS_MESSAGES, REWARDS_ROUTES } from '../index';

function periodMessage(period: unknown): string | null {
  const result = earningsQuerySchema.safeParse({ period });
  return result.success ? null : firstIssueMessage(result.error);
}

describe('earningsQuerySchema', () => {
  it('should take a month as YYYY-MM, or none (the current month)', () => {
    expect(periodMessage('2026-10')).toBeNull();
    expect(periodMessage('1999-12')).toBeNull();
    expect(earningsQuerySchema.parse({})).toEqual({});
  });

  it('should refuse anything else with one clear message', () => {
    for (const bad of [
      '2026-13',
      '2026-00',
      '2026-1',
      '2026/10',
      '2026-10-01',
      '',
      'now',
      ['2026-10'],
    ]) {
      expect(periodMessage(bad)).toBe(REWARDS_MESSAGES.periodFormat);
    }
  });
});

describe('REWARDS_ROUTES', () => {
  it('should put the period in the query string', () => {
    expect(REWARDS_ROUTES.earnings('abc', '2026-10')).toBe(
      '/api/nodes/abc/earnings?period=2026-10',
    );
    expect(REWARDS_ROUTES.earnings('abc')).toBe('/api/nodes/abc/earnings');
  });
});
