import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeAgentConfig } from '../config/agent-config';
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
      controlPlane: {
        target: '127.0.0.1:1',
        tls: false,
        reachable: false,
        error: expect.any(String),
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
    });
  });
});
