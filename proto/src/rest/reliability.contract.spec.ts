import {
  RELIABILITY_HISTORY_MESSAGES,
  RELIABILITY_ROUTES,
  serverReliabilityQuerySchema,
} from '../index';

describe('serverReliabilityQuerySchema', () => {
  it('should default to 30 days when days is absent', () => {
    expect(serverReliabilityQuerySchema.parse({})).toEqual({ days: 30 });
    expect(serverReliabilityQuerySchema.parse({ t: '123' })).toEqual({ days: 30 });
  });

  it.each([
    ['1', 1],
    ['90', 90],
    ['7', 7],
  ])('should accept days=%s', (days, parsed) => {
    expect(serverReliabilityQuerySchema.parse({ days })).toEqual({ days: parsed });
  });

  it.each([['0'], ['91'], ['-1'], ['1.5'], ['abc'], [''], ['1000'], [' 5']])(
    'should refuse days=%j with the range message',
    (days) => {
      const result = serverReliabilityQuerySchema.safeParse({ days });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(RELIABILITY_HISTORY_MESSAGES.daysInvalid);
    },
  );

  it('should refuse days given twice', () => {
    expect(serverReliabilityQuerySchema.safeParse({ days: ['1', '2'] }).success).toBe(false);
  });
});

describe('RELIABILITY_ROUTES', () => {
  it('should build the owner-scoped path with and without days', () => {
    expect(RELIABILITY_ROUTES.serverReliability('u', 's')).toBe(
      '/api/nodes/u/servers/s/reliability',
    );
    expect(RELIABILITY_ROUTES.serverReliability('u', 's', 7)).toBe(
      '/api/nodes/u/servers/s/reliability?days=7',
    );
  });
});
