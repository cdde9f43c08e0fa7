import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  decodeSubscriptionContent,
  NODES_ROUTES,
  type NodeServerDetails,
  type SubscriptionCreationResponse,
} from '@scn/proto';
import { readAgentConfig } from '../../src/config/agent-config';
import { AGENT_NODE_ENV, AGENT_NODE_FLAGS } from '../../src/node-flags';
import {
  type ControlPlaneKit,
  type FundingChain,
  hasDatabase,
  loadControlPlaneKit,
  type TestApp,
} from './control-plane-kit';
import {
  createTestNetns,
  netnsSkipReason,
  startNamespacedHttpServer,
  type TestNetns,
} from './netns.support';
import { countingServer, eventually, freePort, killAndWait } from './proxy-core.support';
import { httpGetThroughSocks } from './socks-client.support';
import { V2RAY } from './v2ray-node';
import { startClientFromLink } from './vless-link-client';

/**
 * A tunnel proved end to end from the built product: the agent's dist/, spawned as a process with
 * the Node flags the installer's launcher and `npm start` use, enrolls Debian's v2ray (VLESS +
 * self-signed TLS), runs with `--allow-test-destinations <test host>/32`, and a subscriber's
 * v2ray built ONLY from the served link (its `pcs` pin checked) fetches a page from a test host
 * in a network namespace on TEST-NET-2. A node refuses every special-purpose destination, so
 * without the flag nothing on a test machine is reachable through it; with it (the narrowest
 * CIDR holding the test host and the node's own veth address), loopback and that own address
 * stay refused (docs/security.md "Tunnel
 * isolation"). The only packets sent go to loopback and to that namespace.
 */
const AGENT = path.join(__dirname, '..', '..', 'dist', 'src', 'index.js');
const BODY = 'the test host behind a real tunnel';
const TEST_HOST_PORT = 8080;

const reason = existsSync(V2RAY) ? netnsSkipReason() : `${V2RAY} is missing`;
if (reason) console.warn(`test destinations e2e skipped: ${reason}`);
const describeLive = !reason && hasDatabase ? describe : describe.skip;

interface Kit extends Pick<
  ControlPlaneKit,
  'startFundingChain' | 'depositThroughChain' | 'AgentGrpcServer'
> {
  startTestApp(env: Record<string, string>): Promise<TestApp>;
  registerAccount(
    t: TestApp,
    options: { userType: 'client' | 'node' },
  ): Promise<{ uuid: string; token: string; cookie: string }>;
}

/** The built agent as a process; `output()` is what it wrote to stderr and stdout so far. */
function spawnAgent(args: string[]): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [...AGENT_NODE_FLAGS, AGENT, ...args], {
    env: { ...process.env, ...AGENT_NODE_ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/**
 * The narrowest IPv4 CIDR holding both addresses: opened whole, so the node's own veth address
 * lies inside what the flag opens and must stay refused all the same.
 */
function coveringCidr(a: string, b: string): string {
  const value = (address: string) =>
    address.split('.').reduce((sum, octet) => sum * 256 + Number(octet), 0);
  let prefix = 32;
  while (
    prefix > 0 &&
    Math.floor(value(a) / 2 ** (32 - prefix)) !== Math.floor(value(b) / 2 ** (32 - prefix))
  )
    prefix -= 1;
  const base = Math.floor(value(a) / 2 ** (32 - prefix)) * 2 ** (32 - prefix);
  const octets = [24, 16, 8, 0].map((shift) => Math.floor(base / 2 ** shift) % 256);
  return `${octets.join('.')}/${prefix}`;
}

/** Stops the daemon as systemd does (SIGTERM: it stops its core), SIGKILL after 10 s. */
async function stopAgent(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

describeLive('a tunnel through the built agent with --allow-test-destinations', () => {
  let kit: Kit;
  let t: TestApp;
  let funding: FundingChain | undefined;
  let workDir: string;
  let netns: TestNetns | undefined;
  let testHost: ChildProcess | undefined;
  let loopbackService: Awaited<ReturnType<typeof countingServer>> | undefined;
  let ownAddressService: Awaited<ReturnType<typeof countingServer>> | undefined;
  let agent: ReturnType<typeof spawnAgent> | undefined;
  let client: ChildProcess | undefined;
  let socksPort: number;
  let opened: string;

  beforeAll(async () => {
    kit = (await loadControlPlaneKit()) as unknown as Kit;
    funding = await kit.startFundingChain();
    t = await kit.startTestApp({ ...funding.env, LAUNCH_PERIOD_ENDS: '2020-01-01' });
    const grpcPort = t.app.get<{ port: number }>(kit.AgentGrpcServer).port;
    const operator = await kit.registerAccount(t, { userType: 'node' });
    const subscriber = await kit.registerAccount(t, { userType: 'client' });
    await kit.depositThroughChain(t, funding, subscriber, 20);

    workDir = await mkdtemp(path.join(tmpdir(), 'scn-test-destinations-'));
    netns = await createTestNetns('tdst');
    testHost = await startNamespacedHttpServer(netns, TEST_HOST_PORT, BODY);
    loopbackService = await countingServer('127.0.0.1');
    ownAddressService = await countingServer(netns.hostAddress);

    // The wizard's token, then the built agent's own enroll and run.
    const token = await t
      .http()
      .post('/api/nodes/enrollment-tokens')
      .set('Authorization', `Bearer ${operator.token}`)
      .send({ tier: 'tier1' })
      .expect(201);
    const configPath = path.join(workDir, 'agent', 'config.json');
    const enroll = spawnAgent([
      'enroll',
      '--server',
      `127.0.0.1:${grpcPort}`,
      '--token',
      (token.body as { token: string }).token,
      '--tier',
      'tier1',
      '--public-host',
      '127.0.0.1',
      '--public-port',
      String(await freePort()),
      '--core',
      'v2ray',
      '--core-binary',
      V2RAY,
      '--core-api-port',
      String(await freePort()),
      '--core-work-dir',
      path.join(workDir, 'core'),
      '--config',
      configPath,
    ]);
    const enrolled = await new Promise<number | null>((resolve) =>
      enroll.child.once('exit', resolve),
    );
    if (enrolled !== 0) throw new Error(`scn-agent enroll failed: ${enroll.output()}`);
    const nodeId = (await readAgentConfig(configPath)).nodeId;

    opened = coveringCidr(netns.hostAddress, netns.nsAddress);
    agent = spawnAgent(['run', '--config', configPath, '--allow-test-destinations', opened]);
    // The node serves its plan once it reported it (the dashboard's "pending" ends).
    await eventually(async () => {
      if (agent!.child.exitCode !== null) throw new Error(`agent exited: ${agent!.output()}`);
      const response = await t
        .http()
        .get(NODES_ROUTES.server(operator.uuid, nodeId))
        .set('Authorization', `Bearer ${operator.token}`)
        .expect(200);
      const server = (response.body as { server: NodeServerDetails }).server;
      if (server.inboundPending) throw new Error('the node has not reported its plan yet');
    }, 30_000);

    const bought = await t
      .http()
      .post('/api/clients/create-subscription')
      .set('Cookie', subscriber.cookie)
      .set('Idempotency-Key', `test-destinations-${Date.now()}`)
      .send({ uuid: subscriber.uuid, serverIds: [nodeId], billingCycle: 'monthly' })
      .expect(200);
    const subscription = bought.body as SubscriptionCreationResponse;
    // The agent writes each client set it applied to its config file.
    await eventually(async () => {
      const { allowedClients } = await readAgentConfig(configPath);
      if (!allowedClients.includes(subscription.subscription.uuid)) {
        throw new Error(`the client is not on the node yet: ${agent!.output()}`);
      }
    }, 15_000);

    const feed = await t.http().get(new URL(subscription.subscriptionUrl).pathname).expect(200);
    const links = decodeSubscriptionContent(feed.text) ?? [];
    expect(links).toHaveLength(1);
    socksPort = await freePort();
    client = await startClientFromLink(
      V2RAY,
      workDir,
      links[0]!,
      socksPort,
      'subscriber',
      // As v2rayNG 2.0.7+ builds it: it pins the node's self-signed certificate (`pcs`).
      'v2rayng-2.0.7',
    );
  }, 120_000);

  afterAll(async () => {
    try {
      await stopAgent(agent?.child);
      await killAndWait(client);
      await killAndWait(testHost);
      await loopbackService?.close();
      await ownAddressService?.close();
      await netns?.remove();
      await t?.close();
    } finally {
      await funding?.stop();
      if (workDir) await rm(workDir, { recursive: true, force: true });
    }
  });

  it('should say at start that tunnels may reach the test destination', () => {
    expect(agent!.output()).toContain(`tunnels may reach ${opened}`);
  });

  it('should carry the link’s traffic to the test host on TEST-NET-2', async () => {
    const result = await eventually(async () => {
      const answer = await httpGetThroughSocks(socksPort, netns!.nsAddress, TEST_HOST_PORT, 2000);
      if (!answer) throw new Error('no answer through the tunnel yet');
      return answer;
    }, 15_000);
    expect(result).toEqual({ status: 200, body: BODY });
  });

  it.each([['127.0.0.1'], ['localhost']])(
    'should still refuse a loopback service at %s',
    async (host) => {
      const result = await httpGetThroughSocks(socksPort, host, loopbackService!.port, 2000);
      expect(result).toBeNull();
      expect(loopbackService!.hits()).toBe(0);
    },
  );

  it('should still refuse the node’s own veth address, inside the opened range', async () => {
    const result = await httpGetThroughSocks(
      socksPort,
      netns!.hostAddress,
      ownAddressService!.port,
      2000,
    );
    expect(result).toBeNull();
    expect(ownAddressService!.hits()).toBe(0);
  });
});
