import type { AgentConfigInput } from './agent-config';

/** A valid config for specs (not a spec itself). */
export function sampleConfig(overrides: Partial<AgentConfigInput> = {}): AgentConfigInput {
  return {
    controlPlane: '127.0.0.1:1',
    tls: false,
    nodeId: '3f1c2b7e-8d4a-4f5b-9c6d-0e1f2a3b4c5d',
    nodeSecret: 'secret',
    tier: 'tier2',
    publicHost: '203.0.113.7',
    publicPort: 443,
    core: { kind: 'v2ray', binary: '/nonexistent/v2ray', apiPort: 1, workDir: '/tmp/x' },
    reportIntervalMs: 60_000,
    ...overrides,
  };
}
