import { agentConfigSchema, type CoreAuditSummary } from '../config/agent-config';
import { sampleConfig } from '../config/agent-config.fixture';
import { AUDIT_ALERT_MS, AUDIT_STALE_MS, checkCoreAudit } from './doctor';

const NOW = Date.parse('2025-06-01T12:00:00.000Z');
const at = (msAgo: number) => new Date(NOW - msAgo).toISOString();

function audit(overrides: Partial<CoreAuditSummary> = {}): CoreAuditSummary {
  return {
    at: at(10_000),
    mechanism: 'v2ray_user_counters',
    usersSeen: 3,
    foreignRemoved: [],
    restored: [],
    revokedStillConnected: [],
    reset: null,
    error: null,
    ...overrides,
  };
}

function config(last?: CoreAuditSummary, finding?: CoreAuditSummary) {
  return agentConfigSchema.parse(
    sampleConfig({ lastCoreAudit: last, lastCoreAuditFinding: finding }),
  );
}

describe('checkCoreAudit', () => {
  it('should skip when no audit was recorded', () => {
    expect(checkCoreAudit(config(), true, NOW)).toMatchObject({ result: 'SKIP' });
  });

  it('should pass when the last audit was clean and recent', () => {
    const check = checkCoreAudit(config(audit()), true, NOW);
    expect(check).toMatchObject({ result: 'PASS' });
    expect(check.detail).toContain('3 user(s) seen');
  });

  it('should fail when a foreign user was removed within the alert window', () => {
    const finding = audit({
      foreignRemoved: ['badc0ffe-e0dd-4f00-8bad-f00dbeefcafe'],
      reset: 'foreign_users',
    });
    const check = checkCoreAudit(config(audit(), finding), true, NOW);
    expect(check.result).toBe('FAIL');
    expect(check.detail).toContain('badc0ffe-e0dd-4f00-8bad-f00dbeefcafe');
    expect(check.hint).toContain('127.0.0.1:1');
  });

  it('should pass again when the foreign user was removed before the alert window', () => {
    const finding = audit({ at: at(AUDIT_ALERT_MS + 1), foreignRemoved: ['x'] });
    expect(checkCoreAudit(config(audit(), finding), true, NOW).result).toBe('PASS');
  });

  it('should pass when the only finding is a revoked client cut off', () => {
    const finding = audit({
      revokedStillConnected: ['11111111-1111-4111-8111-111111111111'],
      reset: 'revoked_client_still_connected',
    });
    const check = checkCoreAudit(config(audit(), finding), true, NOW);
    expect(check.result).toBe('PASS');
    expect(check.detail).toContain('revoked client(s) still connected');
  });

  it('should fail when the last audit failed', () => {
    const check = checkCoreAudit(
      config(audit({ error: 'API refused', mechanism: null })),
      true,
      NOW,
    );
    expect(check).toMatchObject({ result: 'FAIL', detail: expect.stringContaining('API refused') });
  });

  it('should fail when the audits stopped while the core API answers', () => {
    const stale = audit({ at: at(AUDIT_STALE_MS + 1) });
    expect(checkCoreAudit(config(stale), true, NOW).result).toBe('FAIL');
    expect(checkCoreAudit(config(stale), false, NOW).result).toBe('PASS');
  });
});
