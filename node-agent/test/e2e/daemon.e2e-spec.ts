import { type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NodeServersResponse } from '@scn/proto';
import {
  type ControlPlaneKit,
  hasDatabase,
  loadControlPlaneKit,
  type ClientSetsServiceShape,
  type TestApp,
  clientsOf,
} from './control-plane-kit';
import { AgentDaemon, proxyCoreOptions } from '../../src/commands/run';
import { type AgentConfig, AgentConfigStore, readAgentConfig } from '../../src/config/agent-config';
import { XrayCore } from '../../src/proxy-core/xray-core';
import { readHardware } from '../../src/system/hardware';
import {
  eventually,
  freePort,
  killAndWait,
  type LocalHttpServer,
  socksHttpGet,
  startHttpServer,
  startVlessClient,
} from './proxy-core.support';
import { clientStreamSettings } from './tls-client.support';
import { enrollV2rayNode, V2RAY } from './v2ray-node';

/**
 * The whole chain on loopback: the real control plane (in-process, real PostgreSQL, real gRPC),
 * the real `enroll`, the real `AgentDaemon` driving a real v2ray 4.34, and a second v2ray as the
 * VLESS client. A client set pushed by the control plane lets the client through within seconds,
 * the next report counts it as active, and an empty set cuts it off again.
 */
const BODY = 'hello through the enrolled node';
const CLIENT_UUID = '6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b';
const UNKNOWN_UUID = 'deadbeef-0000-4000-8000-00000000beef';

const hasV2ray = existsSync(V2RAY);
if (!hasV2ray) console.warn(`daemon e2e skipped: ${V2RAY} is missing (apt-get install v2ray)`);
else if (!hasDatabase) console.warn('daemon e2e skipped: no PostgreSQL (SCN_TEST_ADMIN_URL unset)');
const describeFullChain = hasV2ray && hasDatabase ? describe : describe.skip;

/**
 * The real core built from the enrolled config with the options `createProxyCore` (run.ts) uses,
 * plus the one thing a loopback test needs: the page the client fetches is on 127.0.0.1, which
 * the node refuses by default. AgentDaemon takes its core as a constructor argument, so no
 * production option is needed for this.
 */
function realCoreFor(config: AgentConfig): XrayCore {
  return new XrayCore(
    { ...proxyCoreOptions(config), allowPrivateDestinations: true },
    { stopTimeoutMs: 2000 },
  );
}

/** Whether a process with this id still exists (signal 0 only checks). */
function processAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describeFullChain('agent daemon with a real v2ray, driven by the real control plane', () => {
  let kit: ControlPlaneKit;
  let t: TestApp;
  let nodes: ClientSetsServiceShape;
  let operator: { uuid: string; token: string };
  let workDir: string;
  let httpServer: LocalHttpServer;
  let config: AgentConfig;
  let core: XrayCore;
  let daemon: AgentDaemon | undefined;
  let client: ChildProcess | undefined;
  let clientSocksPort: number;
  let unknownSocksPort: number;
  let corePid: number | undefined;
  // SCN_E2E_VERBOSE=1 prints the agent's log lines.
  const agentLog: string[] = [];
  const io = {
    out: () => undefined,
    err: (text: string) => {
      agentLog.push(text);
      if (process.env.SCN_E2E_VERBOSE) process.stderr.write(text);
    },
  };

  const fetchAs = (socksPort: number) => socksHttpGet(socksPort, httpServer.port, 1500);
  /** Resolves once a fetch through `socksPort` fails (the node refused the client). */
  const refusedEventually = (socksPort: number) =>
    eventually(
      () =>
        fetchAs(socksPort).then(
          () => {
            throw new Error(`a fetch through SOCKS port ${socksPort} still got through`);
          },
          () => undefined,
        ),
      5000,
    );

  beforeAll(async () => {
    kit = await loadControlPlaneKit();
    t = await kit.startTestApp();
    nodes = t.app.get<ClientSetsServiceShape>(kit.ClientSetsService);
    const grpcPort = t.app.get<{ port: number }>(kit.AgentGrpcServer).port;
    operator = await kit.registerAccount(t, { userType: 'node' });
    workDir = await mkdtemp(path.join(tmpdir(), 'scn-agent-daemon-e2e-'));
    httpServer = await startHttpServer(BODY);

    const enrolled = await enrollV2rayNode(t, {
      operatorToken: operator.token,
      grpcPort,
      workDir,
      io,
    });
    config = enrolled.config;
    core = realCoreFor(config);
    daemon = new AgentDaemon(
      new AgentConfigStore(enrolled.configPath, config),
      core,
      io,
      readHardware,
    );
    await daemon.start();
    corePid = core.pid();
    // The daemon reports once at start; wait for it so later reports do not overlap with it.
    await eventually(async () => {
      if (!daemon!.store.current.lastReport) throw new Error('no first report yet');
    }, 10_000);

    clientSocksPort = await freePort();
    unknownSocksPort = await freePort();
    // The client knows the node only from what the agent reports (TLS, pinned certificate).
    const reported = (await daemon.reporter.prepare()).request.inbound!;
    client = await startVlessClient(
      V2RAY,
      workDir,
      config.publicPort,
      [
        { socksPort: clientSocksPort, uuid: CLIENT_UUID },
        { socksPort: unknownSocksPort, uuid: UNKNOWN_UUID },
      ],
      await clientStreamSettings(reported, '127.0.0.1', config.publicPort),
    );
  }, 30_000);

  afterAll(async () => {
    try {
      await daemon?.stop();
      await killAndWait(client);
      await httpServer?.close();
      await t?.close();
    } finally {
      if (workDir) await rm(workDir, { recursive: true, force: true });
    }
  });

  it('should enroll the node and run the real core with the first report accepted', () => {
    expect(config).toMatchObject({ tier: 'tier1', publicHost: '127.0.0.1', tls: false });
    expect(core.status()).toMatchObject({ state: 'running', kind: 'v2ray', version: '4.34.0' });
    expect(processAlive(corePid)).toBe(true);
    expect(daemon!.store.current.lastReport).toMatchObject({
      accepted: true,
      proxyCoreState: 'running',
    });
  });

  it('should refuse a VLESS client when the control plane has not allowed its uuid', async () => {
    await expect(fetchAs(clientSocksPort)).rejects.toThrow();
  });

  it('should let the client fetch the page within seconds when the control plane pushes its uuid', async () => {
    const pushedAt = Date.now();
    await nodes.setAllowedClients(config.nodeId, [CLIENT_UUID]);

    const result = await eventually(() => fetchAs(clientSocksPort), 5000, 100);

    expect(result).toEqual({ status: 200, body: BODY });
    expect(Date.now() - pushedAt).toBeLessThan(5000);
    expect(await clientsOf(t, config.nodeId, daemon!.store.current.allowedClients)).toEqual([
      CLIENT_UUID,
    ]);
    await expect(fetchAs(unknownSocksPort)).rejects.toThrow();
  });

  it('should show the client as active in the control plane after the next report', async () => {
    const response = await daemon!.reporter.reportOnce();
    expect(response.accepted).toBe(true);
    expect(daemon!.store.current.lastReport?.activeClients).toBe(1);

    const servers = await t
      .http()
      .get(`/nodes/servers/${operator.uuid}`)
      .set('Authorization', `Bearer ${operator.token}`)
      .expect(200);
    const body = servers.body as NodeServersResponse;
    expect(body.servers).toHaveLength(1);
    expect(body.servers[0]).toMatchObject({
      id: config.nodeId,
      source: 'agent',
      tier: 'tier1',
      host: '127.0.0.1',
      port: config.publicPort,
    });
    expect(body.servers[0]!.connections).toBeGreaterThanOrEqual(1);
  });

  it('should cut the client off when the control plane pushes an empty set', async () => {
    await nodes.setAllowedClients(config.nodeId, []);

    await refusedEventually(clientSocksPort);
    await eventually(async () => {
      const clients = await clientsOf(t, config.nodeId, daemon!.store.current.allowedClients);
      if (clients.length !== 0) throw new Error('set not applied');
    }, 5000);
    await expect(fetchAs(clientSocksPort)).rejects.toThrow();
    await expect(fetchAs(unknownSocksPort)).rejects.toThrow();
  });

  it('should retry a set the core API refused and apply it once the API answers again', async () => {
    const pid = core.pid()!;
    const appliedBefore = daemon!.store.current.appliedClientSetVersion;
    // A frozen core: its API port accepts connections but answers nothing (calls time out).
    process.kill(pid, 'SIGSTOP');
    let version: string;
    try {
      version = await nodes.setAllowedClients(config.nodeId, [CLIENT_UUID]);
      await eventually(async () => {
        if (!agentLog.some((line) => line.includes(`applying client set v${version} failed`)))
          throw new Error('no failed apply yet');
      }, 15_000);
      expect(daemon!.applier.pendingVersion).toBe(version);
      // Not applied, so not reported as applied.
      expect(daemon!.store.current.appliedClientSetVersion).toBe(appliedBefore);
      expect((await daemon!.reporter.prepare()).request.appliedClientSetVersion).toBe(
        appliedBefore,
      );
    } finally {
      process.kill(pid, 'SIGCONT');
    }

    // No new push, no reconnect: the agent's own retry lets the client in.
    const result = await eventually(() => fetchAs(clientSocksPort), 20_000, 200);
    expect(result).toEqual({ status: 200, body: BODY });
    // Recorded right after the core took it (once the config file is written).
    await eventually(async () => {
      if (daemon!.applier.pendingVersion !== null) throw new Error('still pending');
    }, 5000);
    expect(daemon!.store.current.appliedClientSetVersion).toBe(version);
    expect((await readAgentConfig(daemon!.store.file)).appliedClientSetVersion).toBe(version);
    await daemon!.reporter.reportOnce();
    const rows = await t.db.query<{ applied: string }>(
      'SELECT applied_client_set_version::text AS applied FROM servers WHERE id = $1',
      [config.nodeId],
    );
    expect(rows).toEqual([{ applied: version }]);
  }, 60_000);

  it('should leave no v2ray process behind when the daemon and the client stop', async () => {
    const clientPid = client?.pid;
    await daemon!.stop();
    daemon = undefined;
    await killAndWait(client);

    expect(core.status().state).toBe('stopped');
    expect(core.pid()).toBeUndefined();
    expect(processAlive(corePid)).toBe(false);
    expect(processAlive(clientPid)).toBe(false);
  });
});
