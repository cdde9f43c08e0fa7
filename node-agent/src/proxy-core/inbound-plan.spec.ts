import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type AgentConfig,
  AgentConfigStore,
  agentConfigSchema,
  readAgentConfig,
  writeAgentConfig,
} from '../config/agent-config';
import { sampleConfig } from '../config/agent-config.fixture';
import { decidePlan, type InboundPlan, InboundPlanner, isNewPlan } from './inbound-plan';
import { createInbound, tlsDirFor, VISION_FLOW } from './inbound-setup';
import type {
  ClientTrafficCounters,
  ProxyCore,
  ProxyCoreStatus,
  VlessInboundSettings,
} from './proxy-core';

const plan = (overrides: Partial<InboundPlan> = {}): InboundPlan => ({
  port: 0,
  security: '',
  network: '',
  revision: '1',
  ...overrides,
});

/** A core that records the inbounds it was asked to serve; `refuse` makes the next start fail. */
class RecordingCore implements ProxyCore {
  served: VlessInboundSettings[] = [];
  refuse: string | null = null;
  async start(): Promise<void> {}
  async stop(): Promise<void> {}
  async reconcile(): Promise<void> {}
  async traffic(): Promise<ClientTrafficCounters[]> {
    return [];
  }
  status(): ProxyCoreStatus {
    return { state: 'running', kind: 'v2ray', version: '4.34.0', restartCount: 0 };
  }
  async reconfigure(inbound: VlessInboundSettings): Promise<void> {
    if (this.refuse && inbound.port !== this.served.at(-1)?.port) {
      const message = this.refuse;
      this.refuse = null;
      this.served.push(inbound);
      throw new Error(message);
    }
    this.served.push(inbound);
  }
}

async function enrolledConfig(
  kind: 'v2ray' | 'xray',
): Promise<{ file: string; config: AgentConfig }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'scn-plan-'));
  const file = path.join(dir, 'config.json');
  const inbound = await createInbound({ kind, publicHost: '203.0.113.7', tlsDir: tlsDirFor(file) });
  const config = agentConfigSchema.parse(
    sampleConfig({
      core: { kind, binary: '/nonexistent', apiPort: 1, workDir: path.join(dir, 'core') },
      inbound,
    }),
  );
  await writeAgentConfig(file, config);
  return { file, config };
}

describe('isNewPlan', () => {
  it('should take only a revision above the served one and above the last plan seen', async () => {
    const { config } = await enrolledConfig('v2ray');
    const served = { ...config, inbound: { ...config.inbound, planRevision: '5' } };
    expect(isNewPlan(served, plan({ revision: '6' }))).toBe(true);
    expect(isNewPlan(served, plan({ revision: '5' }))).toBe(false);
    expect(isNewPlan(served, plan({ revision: '4' }))).toBe(false);
    // Compared as integers, not strings.
    expect(isNewPlan(served, plan({ revision: '10' }))).toBe(true);
    const refused = {
      ...served,
      lastPlan: { revision: '9', at: '', outcome: 'refused' as const, reason: 'x' },
    };
    expect(isNewPlan(refused, plan({ revision: '9' }))).toBe(false);
    expect(isNewPlan(refused, plan({ revision: '10' }))).toBe(true);
    expect(isNewPlan(served, null)).toBe(false);
    expect(isNewPlan(served, plan({ revision: '0' }))).toBe(false);
    expect(isNewPlan(served, plan({ revision: 'x' }))).toBe(false);
  });
});

describe('decidePlan', () => {
  it('should change only the port, keeping the certificate and the inbound', async () => {
    const { file, config } = await enrolledConfig('v2ray');
    const decision = await decidePlan(config, plan({ port: 24567 }), tlsDirFor(file));
    expect(decision).toMatchObject({ outcome: 'applied', port: 24567, revision: '1' });
    if (decision.outcome === 'refused') throw new Error('refused');
    expect(decision.inbound).toEqual({ ...config.inbound, planRevision: '1' });
  });

  it('should give ws a fresh path only when the network changes', async () => {
    const { file, config } = await enrolledConfig('v2ray');
    const toWs = await decidePlan(config, plan({ network: 'ws' }), tlsDirFor(file));
    if (toWs.outcome === 'refused') throw new Error(toWs.reason);
    // Port 0: keep the current one (v2ray would take a ws inbound on port 0 for a Unix socket).
    expect(toWs.port).toBe(config.publicPort);
    expect(toWs.inbound.path).toMatch(/^\/[0-9a-f]{16}$/);
    expect(toWs.inbound.certificateFile).toBe(config.inbound.certificateFile);
    const onWs = { ...config, inbound: toWs.inbound };
    const portOnly = await decidePlan(
      onWs,
      plan({ network: 'ws', port: 30000, revision: '2' }),
      '',
    );
    if (portOnly.outcome === 'refused') throw new Error(portOnly.reason);
    expect(portOnly.inbound.path).toBe(toWs.inbound.path);
    const same = await decidePlan(onWs, plan({ network: 'ws', revision: '3' }), '');
    expect(same).toMatchObject({ outcome: 'unchanged', revision: '3' });
  });

  it('should keep the REALITY keys when Xray moves to grpc (no vision there)', async () => {
    const { file, config } = await enrolledConfig('xray');
    expect(config.inbound).toMatchObject({ security: 'reality', flow: VISION_FLOW });
    const decision = await decidePlan(config, plan({ network: 'grpc' }), tlsDirFor(file));
    if (decision.outcome === 'refused') throw new Error(decision.reason);
    expect(decision.inbound).toMatchObject({
      security: 'reality',
      network: 'grpc',
      pbk: config.inbound.pbk,
      realityPrivateKey: config.inbound.realityPrivateKey,
      sid: config.inbound.sid,
    });
    expect(decision.inbound.flow).toBeUndefined();
    expect(decision.inbound.serviceName).toMatch(/^[0-9a-f]{16}$/);
  });

  it('should make a certificate when Xray is asked for TLS', async () => {
    const { file, config } = await enrolledConfig('xray');
    const decision = await decidePlan(config, plan({ security: 'tls' }), tlsDirFor(file));
    if (decision.outcome === 'refused') throw new Error(decision.reason);
    expect(decision.inbound).toMatchObject({
      security: 'tls',
      selfSigned: true,
      sni: '203.0.113.7',
    });
    expect(await readFile(decision.inbound.certificateFile!, 'utf8')).toContain(
      'BEGIN CERTIFICATE',
    );
    // The REALITY keys stay for a plan that comes back to REALITY.
    expect(decision.inbound.pbk).toBe(config.inbound.pbk);
  });

  it('should secure a node enrolled before secure transports (plaintext) with its first plan', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'scn-plan-old-'));
    const file = path.join(dir, 'config.json');
    // A config file of an older agent: no inbound at all reads as plaintext tcp.
    const old = agentConfigSchema.parse(sampleConfig());
    expect(old.inbound).toEqual({ security: 'none', network: 'tcp', planRevision: '0' });
    const decision = await decidePlan(old, plan({ security: 'tls', port: 24567 }), tlsDirFor(file));
    if (decision.outcome === 'refused') throw new Error(decision.reason);
    expect(decision).toMatchObject({ outcome: 'applied', port: 24567 });
    expect(decision.inbound).toMatchObject({
      security: 'tls',
      network: 'tcp',
      selfSigned: true,
      sni: '203.0.113.7',
      certificateFile: path.join(dir, 'tls', 'certificate.pem'),
    });
  });

  it.each([
    [{ security: 'reality' }, /REALITY needs Xray/],
    [{ network: 'grpc' }, /no gRPC transport/],
    [{ port: 70000 }, /port 70000 is not 0-65535/],
    [{ port: -1 }, /port -1/],
    [{ network: 'quic' }, /unknown network "quic"/],
    [{ security: 'none' }, /unknown security "none"/],
  ])('should refuse %j on v2ray and say why', async (overrides, reason) => {
    const { file, config } = await enrolledConfig('v2ray');
    const decision = await decidePlan(config, plan(overrides), tlsDirFor(file));
    expect(decision).toEqual({
      outcome: 'refused',
      revision: '1',
      reason: expect.stringMatching(reason),
    });
  });
});

describe('InboundPlanner', () => {
  async function planner(kind: 'v2ray' | 'xray' = 'v2ray') {
    const { file, config } = await enrolledConfig(kind);
    const core = new RecordingCore();
    const store = new AgentConfigStore(file, config);
    const changes: number[] = [];
    const logs: string[] = [];
    const subject = new InboundPlanner({
      core,
      store,
      onChange: () => changes.push(Date.now()),
      log: (message) => logs.push(message),
    });
    return { file, config, core, store, changes, logs, subject };
  }

  it('should restart the core on the new port, persist it and report at once', async () => {
    const { file, core, changes, subject } = await planner();
    await subject.offer(plan({ port: 24567, network: 'ws', revision: '3' }));
    expect(core.served).toHaveLength(1);
    expect(core.served[0]).toMatchObject({ port: 24567, network: 'ws', security: 'tls' });
    const saved = await readAgentConfig(file);
    expect(saved.publicPort).toBe(24567);
    expect(saved.inbound).toMatchObject({ network: 'ws', planRevision: '3' });
    expect(saved.lastPlan).toMatchObject({ revision: '3', outcome: 'applied', reason: null });
    expect(changes).toHaveLength(1);
  });

  it('should ignore an older or repeated plan (each client set carries one)', async () => {
    const { core, changes, subject } = await planner();
    await subject.offer(plan({ port: 24567, revision: '3' }));
    expect(await subject.offer(plan({ port: 24567, revision: '3' }))).toBeNull();
    expect(await subject.offer(plan({ port: 25000, revision: '2' }))).toBeNull();
    expect(core.served.map((s) => s.port)).toEqual([24567]);
    expect(changes).toHaveLength(1);
  });

  it('should refuse REALITY on v2ray: nothing restarted, the refusal kept, a report sent', async () => {
    const { file, config, core, changes, logs, subject } = await planner();
    const decision = await subject.offer(plan({ security: 'reality', port: 24567, revision: '4' }));
    expect(decision).toMatchObject({ outcome: 'refused' });
    expect(core.served).toEqual([]);
    const saved = await readAgentConfig(file);
    expect(saved.publicPort).toBe(config.publicPort);
    expect(saved.inbound).toEqual(config.inbound);
    expect(saved.lastPlan).toMatchObject({ revision: '4', outcome: 'refused' });
    expect(logs.join('\n')).toMatch(
      /refused inbound plan r4: REALITY needs Xray.*still serving tls\/tcp on port 443/,
    );
    expect(changes).toHaveLength(1);
    // Not retried with every client set.
    expect(await subject.offer(plan({ security: 'reality', revision: '4' }))).toBeNull();
  });

  it('should go back to the previous inbound when the core does not start with the new one', async () => {
    const { file, config, core, subject } = await planner();
    core.refuse = 'bind: address already in use';
    const decision = await subject.offer(plan({ port: 24567, revision: '5' }));
    expect(decision).toMatchObject({
      outcome: 'refused',
      reason: expect.stringContaining('address already in use'),
    });
    expect(core.served.map((s) => s.port)).toEqual([24567, config.publicPort]);
    expect((await readAgentConfig(file)).publicPort).toBe(config.publicPort);
  });

  it('should record an unchanged plan as served without restarting the core', async () => {
    const { file, core, changes, subject } = await planner();
    expect(
      await subject.offer(plan({ port: 443, security: 'tls', network: 'tcp', revision: '7' })),
    ).toMatchObject({
      outcome: 'unchanged',
    });
    expect(core.served).toEqual([]);
    expect((await readAgentConfig(file)).inbound.planRevision).toBe('7');
    expect(changes).toHaveLength(1);
  });
});
