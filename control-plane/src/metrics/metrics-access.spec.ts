import { metricsAccess } from './metrics-access';

const TOKEN = 'metrics-token-metrics-token-0123';

describe('metricsAccess', () => {
  it('should answer 404 on the API port when no token is configured', () => {
    expect(metricsAccess(null, undefined, false)).toBe('not_found');
    expect(metricsAccess(null, `Bearer ${TOKEN}`, false)).toBe('not_found');
  });

  it('should serve its own listener without a token when none is configured', () => {
    expect(metricsAccess(null, undefined, true)).toBe('serve');
  });

  it('should serve only the bearer of the configured token', () => {
    for (const ownListener of [false, true]) {
      expect(metricsAccess(TOKEN, `Bearer ${TOKEN}`, ownListener)).toBe('serve');
      expect(metricsAccess(TOKEN, `bearer ${TOKEN}`, ownListener)).toBe('serve');
      expect(metricsAccess(TOKEN, undefined, ownListener)).toBe('unauthorized');
      expect(metricsAccess(TOKEN, TOKEN, ownListener)).toBe('unauthorized');
      expect(metricsAccess(TOKEN, `Bearer ${TOKEN}x`, ownListener)).toBe('unauthorized');
      expect(metricsAccess(TOKEN, `Bearer ${TOKEN.slice(1)}`, ownListener)).toBe('unauthorized');
      expect(metricsAccess(TOKEN, 'Bearer ', ownListener)).toBe('unauthorized');
    }
  });
});
