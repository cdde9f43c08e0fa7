import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NodeServersResponse } from '@scn/proto';
import {
  type ControlPlaneKit,
  hasDatabase,
  loadControlPlaneKit,
  type TestApp,
  clientsOf,
} from './control-plane-kit';
import { AgentDaemon } from '../../src/commands/run';
import { collectStatus } from '../../src/commands/status';
import { enroll } from '../../src/commands/enroll';
import { AgentConfigStore, readAgentConfig } from '../../src/config/agent-config';
import { ControlPlaneClient } from '../../src/grpc/control-plane-client';
import type {
  ClientTrafficCounters,
  ProxyCore,
  ProxyCoreStatus,
} from '../../src/proxy-core/proxy-core';
import { Reporter } from '../../src/reporter/reporter';
import { readHardware } from '../../src/system/hardware';

/**
 * The agent against the real control plane over real gRPC on loopback. Needs the control
 * plane's PostgreSQL global setup (jest.config.js has it); without a database it is skipped, and
 * the control plane is only loaded inside the suite.
 */
const withDatabase = hasDatabase ? describe : describe.skip;

/** An honest in-memory core: the allowed set is what start/reconcile made it. */
class InMemoryCore implements ProxyCore {
  allowed: string[] = [];
  reconciles = 0;
  private state: ProxyCoreStatus['state'] = 'stopped';

  async start(allowedUuids: readonly string[]): Promise<void> {
    this.allowed = [...allowedUuids];
    this.state = 'running';
  }
  async stop(): Promise<void> {
    this.state = 'stopped';
  }
  async reconcile(allowedUuids: readonly string[]): Promise<void> {
    this.reconciles += 1;
    this.allowed = [...allowedUuids].sort();
  }
  async traffic(): Promise<ClientTrafficCounters[]> {
    return this.allowed.map((clientUuid) => ({ clientUuid, uplinkBytes: 0n, downlinkBytes: 0n }));
  }
  status(): ProxyCoreStatus {
    return { state: this.state, kind: 'v2ray', version: '4.34.0', restartCount: 0 };
  }
}

async function until(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

withDatabase('agent <-> real control plane (gRPC on loopback)', () => {
  let t: TestApp;
  let kit: ControlPlaneKit;
  let grpcPort: number;
  let operator: { uuid: string; token: string };
  let configPath: string;
  const io = { out: () => undefined, err: () => undefined };

  beforeAll(async () => {
    kit = await loadControlPlaneKit();
    t = await kit.startTestApp();
    grpcPort = t.app.get<{ port: number }>(kit.AgentGrpcServer).port;
    operator = await kit.registerAccount(t, { userType: 'node' });
    configPath = path.join(await mkdtemp(path.join(tmpdir(), 'scn-agent-e2e-')), 'config.json');
  });

  afterAll(async () => {
    await t?.close();
  });

  it('should enroll, report, show the server with its reliability, and print it in status', async () => {
    const tokenResponse = await t
      .http()
      .post('/api/nodes/enrollment-tokens')
      .set('Authorization', `Bearer ${operator.token}`)
      .send({ tier: 'tier2' })
      .expect(201);

    const enrolled = await enroll(
      {
        server: `127.0.0.1:${grpcPort}`,
        token: tokenResponse.body.token,
        tier: 'tier2',
        publicHost: '198.51.100.20',
        publicPort: '8443',
        insecure: true,
        core: 'v2ray',
        config: configPath,
      },
      { io },
    );
    expect(enrolled.tier).toBe('tier2');

    const config = await readAgentConfig(configPath);
    expect(config).toMatchObject({ nodeId: enrolled.nodeId, tls: false, reportIntervalMs: 60_000 });

    const store = new AgentConfigStore(configPath, config);
    const client = new ControlPlaneClient({ target: config.controlPlane, tls: false }, config);
    const reporter = new Reporter({
      client,
      store,
      core: null,
      agentVersion: '0.1.0',
      hardware: readHardware,
    });
    const response = await reporter.reportOnce();
    client.close();
    expect(response.accepted).toBe(true);

    const servers = await t
      .http()
      .get(`/nodes/servers/${operator.uuid}`)
      .set('Authorization', `Bearer ${operator.token}`)
      .expect(200);
    const body = servers.body as NodeServersResponse;
    expect(body.servers).toHaveLength(1);
    expect(body.servers[0]).toMatchObject({
      id: enrolled.nodeId,
      source: 'agent',
      tier: 'tier2',
      host: '198.51.100.20',
      port: 8443,
      reliability: response.reliability,
    });

    const status = await collectStatus({ config: configPath });
    expect(status).toMatchObject({
      nodeId: enrolled.nodeId,
      tier: 'tier2',
      capacity: 25,
      controlPlane: { reachable: true, tls: false },
      reliability: response.reliability,
      available: response.available,
      lastReport: { accepted: true, error: null, proxyCoreState: 'absent' },
    });
    expect(Math.abs(status.lastReport!.clockSkewMs!)).toBeLessThan(5_000);
  });

  it('should reconcile the core with a set pushed by the control plane over WatchClients', async () => {
    const nodes = t.app.get<{
      setAllowedClients(serverId: string, clientUuids: readonly string[]): Promise<string>;
    }>(kit.ClientSetsService);
    const config = await readAgentConfig(configPath);
    const core = new InMemoryCore();
    const daemon = new AgentDaemon(
      new AgentConfigStore(configPath, config),
      core,
      io,
      readHardware,
    );
    await daemon.start({ report: false });
    try {
      expect(core.status().state).toBe('running');
      const allowed = [
        'aaaaaaaa-0000-4000-8000-000000000001',
        'aaaaaaaa-0000-4000-8000-000000000002',
      ];
      await nodes.setAllowedClients(config.nodeId, allowed);
      await until(() => core.allowed.length === 3);
      expect(await clientsOf(t, config.nodeId, core.allowed)).toEqual(allowed);
      await until(() => daemon.store.current.appliedClientSetVersion !== '0');

      await nodes.setAllowedClients(config.nodeId, [allowed[1]!]);
      await until(() => core.allowed.length === 2);
      expect(await clientsOf(t, config.nodeId, core.allowed)).toEqual([allowed[1]]);
    } finally {
      await daemon.stop();
    }
    // The applied set survives in the config, so the next start begins with it.
    const saved = await readAgentConfig(configPath);
    expect(await clientsOf(t, config.nodeId, saved.allowedClients)).toEqual([
      'aaaaaaaa-0000-4000-8000-000000000002',
    ]);
    expect(BigInt(saved.appliedClientSetVersion)).toBeGreaterThan(0n);
  });
});
