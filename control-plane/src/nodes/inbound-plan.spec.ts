import {
  AVOIDED_PORTS,
  defaultSecurity,
  initialPlan,
  PLAN_PORT_RANGE,
  planPending,
  randomPlanPort,
  transportsOf,
} from './inbound-plan';

describe('inbound plan', () => {
  it('should draw ports only in the documented range, never an avoided one', () => {
    const drawn = Array.from({ length: 5000 }, () => randomPlanPort());
    for (const port of drawn) {
      expect(port).toBeGreaterThanOrEqual(PLAN_PORT_RANGE.min);
      expect(port).toBeLessThanOrEqual(PLAN_PORT_RANGE.max);
      expect(AVOIDED_PORTS.has(port)).toBe(false);
    }
    // Spread over the range, not one value.
    expect(new Set(drawn).size).toBeGreaterThan(4000);
    // The range ends below Linux's ephemeral ports (32768-60999).
    expect(PLAN_PORT_RANGE.max).toBeLessThan(32_768);
  });

  it('should never give back the previous port on regeneration', () => {
    for (let i = 0; i < 2000; i += 1) expect(randomPlanPort(24_000)).not.toBe(24_000);
  });

  it('should default to REALITY with Xray and TLS with v2ray (or an agent naming no core)', () => {
    expect(defaultSecurity('xray')).toBe('reality');
    expect(defaultSecurity('v2ray')).toBe('tls');
    expect(defaultSecurity(null)).toBe('tls');
    expect(initialPlan('xray', 0)).toMatchObject({
      security: 'reality',
      network: 'tcp',
      revision: '1',
    });
    expect(initialPlan('v2ray', 8443)).toEqual({
      port: 8443,
      security: 'tls',
      network: 'tcp',
      revision: '1',
    });
  });

  it('should offer REALITY and gRPC only with Xray (v2ray 4.34 has neither)', () => {
    expect(transportsOf('xray')).toEqual(['reality/tcp', 'tls/tcp', 'tls/ws', 'tls/grpc']);
    expect(transportsOf('v2ray')).toEqual(['tls/tcp', 'tls/ws']);
  });

  it('should be pending until the node reports serving the plan revision', () => {
    const node = (planRevision: string, reported?: string) => ({
      source: 'agent' as const,
      planRevision,
      inbound: (reported === undefined ? {} : { planRevision: reported }) as Record<string, string>,
    });
    expect(planPending(node('1'))).toBe(true);
    expect(planPending(node('3', '2'))).toBe(true);
    expect(planPending(node('3', '3'))).toBe(false);
    expect(planPending(node('0'))).toBe(false);
    expect(planPending({ ...node('2'), source: 'manual' })).toBe(false);
  });
});
