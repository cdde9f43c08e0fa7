import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeAgentConfig } from '../config/agent-config';
import {
  createInbound,
  DEFAULT_REALITY_DEST,
  realityServerName,
  tlsDirFor,
} from '../proxy-core/inbound-setup';
import { sampleConfig } from '../config/agent-config.fixture';
import { buildProgram } from '../program';

describe('status --json', () => {
  it('should print node, tier capacity, last report and an unreachable control plane from the config', async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'scn-status-')), 'config.json');
    await writeAgentConfig(
      file,
      sampleConfig({
        allowedClients: ['11111111-1111-4111-8111-111111111111'],
        appliedClientSetVersion: '3',
        lastReport: {
          at: '2025-01-01T00:00:00.000Z',
          accepted: true,
          reliability: 54,
          available: true,
          error: null,
          activeClients: 1,
          proxyCoreState: 'running',
          clockSkewMs: 12,
        },
      }),
    );
    let out = '';
    const program = buildProgram({ out: (t) => (out += t), err: () => undefined });
    await program.parseAsync([
      'node',
      'scn-agent',
      'status',
      '--json',
      '--config',
      file,
      '--timeout',
      '300',
    ]);
    const status = JSON.parse(out);
    expect(status).toEqual({
      version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      configPath: file,
      nodeId: sampleConfig().nodeId,
      tier: 'tier2',
      capacity: 25,
      certificate: null,
      controlPlane: {
        target: '127.0.0.1:1',
        tls: false,
        reachable: false,
        error: expect.any(String),
        endpoints: [{ target: '127.0.0.1:1', reachable: false, error: expect.any(String) }],
      },
      lastReport: expect.objectContaining({ accepted: true, reliability: 54 }),
      reliability: 54,
      available: true,
      clients: { allowed: 1, active: 1, appliedClientSetVersion: '3' },
      proxyCore: {
        kind: 'v2ray',
        binary: '/nonexistent/v2ray',
        apiPort: 1,
        apiReachable: false,
        lastReportedState: 'running',
      },
      transport: expect.objectContaining({
        security: 'none',
        network: 'tcp',
        port: 443,
        planRevision: '0',
        coreAccepts: {
          accepted: null,
          command: '/nonexistent/v2ray',
          output: '/nonexistent/v2ray is not installed',
        },
      }),
      coreAudit: { last: null, lastFinding: null },
    });
  });

  it('should show the last core audit and its last finding when the daemon recorded them', async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'scn-status-')), 'config.json');
    const finding = {
      at: '2025-01-01T00:00:00.000Z',
      mechanism: 'v2ray_user_counters' as const,
      usersSeen: 2,
      foreignRemoved: ['badc0ffe-e0dd-4f00-8bad-f00dbeefcafe'],
      restored: [],
      revokedStillConnected: [],
      reset: 'foreign_users' as const,
      error: null,
    };
    const clean = {
      ...finding,
      at: '2025-01-01T00:00:30.000Z',
      usersSeen: 1,
      foreignRemoved: [],
      reset: null,
    };
    await writeAgentConfig(
      file,
      sampleConfig({ lastCoreAudit: clean, lastCoreAuditFinding: finding }),
    );
    let out = '';
    const program = buildProgram({ out: (t) => (out += t), err: () => undefined });
    await program.parseAsync(['node', 'scn-agent', 'status', '--config', file, '--timeout', '300']);

    expect(out).toMatch(
      /Core audit\s+2025-01-01T00:00:30.000Z via v2ray user counters, 1 user\(s\) seen/,
    );
    expect(out).toMatch(
      /Audit finding\s+2025-01-01T00:00:00.000Z: removed foreign user\(s\) badc0ffe-e0dd-4f00-8bad-f00dbeefcafe; core restarted from its config \(foreign users\)/,
    );
  });

  it('should show the REALITY inbound (public key, short id, target) and the last refused plan', async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'scn-status-')), 'config.json');
    const inbound = await createInbound({
      kind: 'xray',
      publicHost: '203.0.113.7',
      tlsDir: tlsDirFor(file),
    });
    await writeAgentConfig(
      file,
      sampleConfig({
        core: { kind: 'xray', binary: '/nonexistent/xray', apiPort: 1, workDir: '/tmp/x' },
        inbound: { ...inbound, planRevision: '4' },
        lastPlan: {
          revision: '5',
          at: '2025-01-01T00:00:00.000Z',
          outcome: 'refused',
          reason: 'REALITY runs over tcp or grpc, not ws',
        },
      }),
    );
    let out = '';
    const program = buildProgram({ out: (t) => (out += t), err: () => undefined });
    await program.parseAsync(['node', 'scn-agent', 'status', '--config', file, '--timeout', '300']);
    expect(out).toContain(
      `Transport      reality/tcp on port 443; sni ${realityServerName(DEFAULT_REALITY_DEST)}; ` +
        `flow xtls-rprx-vision; REALITY public key ${inbound.pbk}, short id ${inbound.sid}, ` +
        `target ${DEFAULT_REALITY_DEST}`,
    );
    expect(out).toMatch(/Core config\s+not tested: \/nonexistent\/xray is not installed/);
    expect(out).toContain(
      'Inbound plan   serving plan r4; last plan r5 refused at 2025-01-01T00:00:00.000Z: ' +
        'REALITY runs over tcp or grpc, not ws',
    );
  });
});
