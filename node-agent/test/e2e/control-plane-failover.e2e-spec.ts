import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseVlessLink, type SubscriptionCreationResponse } from '@scn/proto';
import type { AgentDaemon } from '../../src/commands/run';
import type { AgentConfig } from '../../src/config/agent-config';
import { spreadIndex } from '../../src/grpc/control-plane-endpoints';
import { hasDatabase } from './control-plane-kit';
import {
  eventually,
  freePort,
  killAndWait,
  type LocalHttpServer,
  socksHttpGet,
  startHttpServer,
} from './proxy-core.support';
import { sampleSum } from './replicas-proxy.support';
import { startClientFromLink } from './vless-link-client';
import { enrollV2rayNodeWithToken, startV2rayDaemon, V2RAY } from './v2ray-node';

/**
 * Agents fail over (docs/operators.md "Several control plane replicas"): two control plane
 * replicas, the built dist/main.js twice on one database (each its own HTTP and gRPC port on
 * 127.0.0.1), and four agents on real v2ray that know both addresses. Each agent starts at the
 * replica its node id picks, so both replicas serve agents. One replica is SIGKILLed: every agent
 * it served reports to the other within 10 s (the figures are printed), and a purchase made
 * through the survivor reaches every agent's core and carries traffic through it. The replica
 * then starts again on its ports: its agents return to it (they check it every 1 to 2 s here,
 * `preferredEndpointCheckMs`) and report there, their client-set streams with them.
 */
const CONTROL_PLANE = path.join(__dirname, '../../../control-plane');
const MAIN = path.join(CONTROL_PLANE, 'dist', 'main.js');
const AGENTS_PER_REPLICA = 2;
const FAILOVER_MS = 10_000;
/** The agents' check of their own replica: every 1 to 2 s (30 to 60 s by default). */
const PREFERRED_CHECK_MS = 1_000;
/**
 * From the returned replica's readiness to its agents' first report there: a check's wait (up to
 * twice the interval), the channel's reconnect backoff the check waits out (up to about 6 s), a
 * report.
 */
const RETURN_MS = 15_000;
const METRICS_TOKEN = 'failover-metrics-token-failover';
const BODY = 'hello through the surviving replica';

const hasV2ray = existsSync(V2RAY);
if (!hasV2ray) console.warn(`failover e2e skipped: ${V2RAY} is missing (apt-get install v2ray)`);
const describeFailover = hasV2ray && hasDatabase ? describe : describe.skip;

interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}
interface SmtpCapture {
  url: string;
  mails: unknown[];
  codeFor(to: string, since?: number): Promise<string>;
  stop(): Promise<void>;
}

/** One replica: dist/main.js as a child process. */
interface Replica {
  name: string;
  http: string;
  grpc: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<unknown>;
}

async function startReplica(
  name: string,
  env: Record<string, string>,
  dataDir: string,
  /** The ports of a replica that starts again where it was (default: free ones). */
  ports?: { httpPort: number; grpcPort: number },
): Promise<Replica> {
  const [httpPort, grpcPort] = ports
    ? [ports.httpPort, ports.grpcPort]
    : [await freePort(), await freePort()];
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH,
      ...env,
      PORT: String(httpPort),
      HOST: '127.0.0.1',
      GRPC_PORT: String(grpcPort),
      GRPC_HOST: '127.0.0.1',
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const replica = {
    name,
    http: `http://127.0.0.1:${httpPort}`,
    grpc: `127.0.0.1:${grpcPort}`,
    child,
    output: () => output,
    exited,
  };
  await eventually(async () => {
    if (child.exitCode !== null) throw new Error(`replica ${name} exited:\n${output}`);
    const response = await fetch(`${replica.http}/health/ready`);
    if (response.status !== 200) throw new Error(`replica ${name} not ready`);
  }, 60_000);
  return replica;
}

describeFailover('agents fail over between control plane replicas', () => {
  let workDir: string;
  let db: TestDatabase;
  let smtp: SmtpCapture;
  let page: LocalHttpServer;
  const replicas: Replica[] = [];
  const agents: Array<{ config: AgentConfig; daemon: AgentDaemon; home: Replica }> = [];
  const coreClients: ChildProcess[] = [];
  const io0 = { out: () => undefined, err: () => undefined };
  let ip = 0;
  let env: Record<string, string>;

  /** A JSON call to a replica's REST API. */
  async function call<T>(
    replica: Replica,
    route: string,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ body: T; headers: Headers }> {
    const response = await fetch(`${replica.http}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${route} answered ${response.status}: ${text}`);
    return { body: JSON.parse(text) as T, headers: response.headers };
  }

  /** Signs up through the real endpoints of `replica` (code by SMTP). */
  async function register(replica: Replica, userType: 'client' | 'node') {
    ip += 1;
    const email = `failover.${userType}.${Date.now().toString(36)}@example.com`;
    const from = { 'x-forwarded-for': `198.51.100.${ip}` };
    const since = smtp.mails.length;
    await call(replica, '/api/auth/generate-code', { email, userType }, from);
    const code = await smtp.codeFor(email, since);
    const password = 'correct horse battery';
    const { body, headers } = await call<{ uuid: string; token: string }>(
      replica,
      '/api/auth/register',
      { email, password, userType, code, captchaToken: null },
      from,
    );
    return { ...body, cookie: (headers.get('set-cookie') ?? '').split(';')[0] ?? '' };
  }

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npm run build\` first`);
    const load = (file: string) =>
      import(path.join(CONTROL_PLANE, file)) as Promise<Record<string, unknown>>;
    const [databases, mail] = await Promise.all([
      load('test/support/test-database'),
      load('test/support/smtp-capture'),
    ]);
    db = await (databases.createTestDatabase as () => Promise<TestDatabase>)();
    smtp = await (mail.SmtpCapture as { start(): Promise<SmtpCapture> }).start();
    workDir = await mkdtemp(path.join(tmpdir(), 'scn-failover-e2e-'));
    page = await startHttpServer(BODY);
    env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: db.url,
      SMTP_URL: smtp.url,
      SUPPORT_EMAIL: 'support@scn.test',
      MAIL_FROM: 'SCN <no-reply@scn.test>',
      APP_SECRET: 'failover-secret-failover-secret-failover',
      // Free subscriptions (the launch period): the purchase needs no deposit.
      LAUNCH_PERIOD_ENDS: '2099-12-31',
      METRICS_TOKEN,
    };
    // One after the other: the first one migrates the shared database.
    for (const name of ['a', 'b']) {
      replicas.push(await startReplica(name, env, path.join(workDir, `replica-${name}`)));
    }
    const list = replicas.map((r) => r.grpc).join(',');

    // Enroll nodes until each replica is the starting point of AGENTS_PER_REPLICA of them (the
    // node id decides); each daemon must then be found on the replica its id picked.
    const operator = await register(replicas[0]!, 'node');
    const wanted = new Map(replicas.map((r) => [r, AGENTS_PER_REPLICA]));
    for (let i = 0; [...wanted.values()].some((left) => left > 0); i += 1) {
      if (i >= 24) throw new Error('24 node ids never spread over both replicas');
      // The setup wizard's token, from either replica.
      const { body } = await call<{ token: string }>(
        replicas[i % 2]!,
        '/api/nodes/enrollment-tokens',
        { tier: 'tier1' },
        { authorization: `Bearer ${operator.token}` },
      );
      const enrolled = await enrollV2rayNodeWithToken({
        token: body.token,
        server: list,
        workDir: path.join(workDir, `node-${i}`),
        io: io0,
      });
      const home = replicas[spreadIndex(enrolled.config.nodeId, replicas.length)]!;
      if (wanted.get(home)! === 0) continue;
      wanted.set(home, wanted.get(home)! - 1);
      const daemon = await startV2rayDaemon(
        {
          ...enrolled,
          config: { ...enrolled.config, preferredEndpointCheckMs: PREFERRED_CHECK_MS },
        },
        io0,
      );
      agents.push({ config: enrolled.config, daemon, home });
    }
  }, 240_000);

  afterAll(async () => {
    for (const agent of agents) await agent.daemon.stop().catch(() => undefined);
    for (const child of coreClients) await killAndWait(child);
    for (const replica of replicas) {
      if (replica.child.exitCode === null && replica.child.signalCode === null) {
        replica.child.kill('SIGTERM');
        await replica.exited;
      }
    }
    await page?.close();
    await smtp?.stop();
    await db?.drop();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  }, 60_000);

  it('should move every agent of a SIGKILLed replica to the other within 10 s and deliver a purchase made there', async () => {
    const [killed, survivor] = replicas as [Replica, Replica];
    const answeredBy = (agent: (typeof agents)[number]) =>
      agent.daemon.store.current.lastReport?.endpoint;
    // Spread: each agent reports to the replica its node id picked.
    for (const agent of agents) {
      await eventually(async () => {
        await agent.daemon.reporter.reportOnce();
        if (answeredBy(agent) !== agent.home.grpc)
          throw new Error(`${agent.config.nodeId} reports to ${answeredBy(agent)}`);
      }, 10_000);
    }
    expect(agents.filter((a) => a.home === killed)).toHaveLength(AGENTS_PER_REPLICA);
    expect(agents.filter((a) => a.home === survivor)).toHaveLength(AGENTS_PER_REPLICA);

    const killedAt = Date.now();
    killed.child.kill('SIGKILL');
    await killed.exited;
    const movers = agents.filter((agent) => agent.home === killed);
    const movedAfterMs = await Promise.all(
      movers.map((agent) =>
        eventually(
          async () => {
            const last = agent.daemon.store.current.lastReport;
            if (
              !last?.accepted ||
              last.endpoint !== survivor.grpc ||
              Date.parse(last.at) < killedAt
            )
              throw new Error(`${agent.config.nodeId} has not reported to ${survivor.name} yet`);
            return Date.parse(last.at) - killedAt;
          },
          FAILOVER_MS,
          20,
        ),
      ),
    );
    // The survivor's own agents stay where they are.
    for (const agent of agents.filter((a) => a.home === survivor)) {
      expect(answeredBy(agent)).toBe(survivor.grpc);
    }

    // A purchase through the survivor, on every node: it reaches each core.
    const client = await register(survivor, 'client');
    const sentAt = Date.now();
    const { body: bought } = await call<SubscriptionCreationResponse>(
      survivor,
      '/api/clients/create-subscription',
      { uuid: client.uuid, serverIds: agents.map((a) => a.config.nodeId), billingCycle: 'monthly' },
      { cookie: client.cookie, 'idempotency-key': `failover-${sentAt}` },
    );
    const uuid = bought.subscription.uuid;
    const appliedAfterMs = await Promise.all(
      agents.map((agent) =>
        eventually(
          async () => {
            // Written only once the core took the set (client-set-applier.ts).
            if (!agent.daemon.store.current.allowedClients.includes(uuid))
              throw new Error(`${agent.config.nodeId} has not applied the purchase`);
            return Date.now() - sentAt;
          },
          15_000,
          20,
        ),
      ),
    );
    for (const [i, agent] of agents.entries()) {
      const link = bought.vlessStrings.find(
        (l) => parseVlessLink(l)?.port === agent.daemon.store.current.publicPort,
      );
      expect(link).toBeDefined();
      const socksPort = await freePort();
      coreClients.push(
        await startClientFromLink(V2RAY, workDir, link!, socksPort, `c${i}`, 'v2rayng-2.0.7'),
      );
      const got = await eventually(() => socksHttpGet(socksPort, page.port, 1500), 15_000, 50);
      expect(got).toEqual({ status: 200, body: BODY });
    }

    console.log(
      `replica ${killed.name} SIGKILLed: its ${movers.length} agents reported to ${survivor.name} ` +
        `after ${movedAfterMs.join(', ')} ms; a purchase through ${survivor.name} reached the ${agents.length} ` +
        `cores after ${appliedAfterMs.join(', ')} ms (traffic through each)`,
    );
  }, 120_000);

  it('should bring the agents of a replica that starts again on its ports back to it, streams and all', async () => {
    const [killed, survivor] = replicas as [Replica, Replica];
    const movers = agents.filter((agent) => agent.home === killed);
    const stayers = agents.filter((agent) => agent.home === survivor);
    // The previous test left every agent on the survivor.
    for (const agent of agents) {
      expect(agent.daemon.store.current.lastReport?.endpoint).toBe(survivor.grpc);
    }
    const port = (address: string) =>
      Number(new URL(address.includes('://') ? address : `http://${address}`).port);
    const returned = await startReplica(
      killed.name,
      env,
      path.join(workDir, `replica-${killed.name}`),
      {
        httpPort: port(killed.http),
        grpcPort: port(killed.grpc),
      },
    );
    replicas[0] = returned;
    const readyAt = Date.now();
    expect(returned.grpc).toBe(killed.grpc);

    const returnedAfterMs = await Promise.all(
      movers.map((agent) =>
        eventually(
          async () => {
            const last = agent.daemon.store.current.lastReport;
            if (!last?.accepted || last.endpoint !== returned.grpc || Date.parse(last.at) < readyAt)
              throw new Error(`${agent.config.nodeId} has not reported to ${returned.name} again`);
            return Date.parse(last.at) - readyAt;
          },
          RETURN_MS,
          20,
        ),
      ),
    );
    // The survivor's own agents never left it, and the ones that came back stay.
    await new Promise((resolve) => setTimeout(resolve, 3 * PREFERRED_CHECK_MS));
    for (const agent of stayers) {
      await agent.daemon.reporter.reportOnce();
      expect(agent.daemon.store.current.lastReport?.endpoint).toBe(survivor.grpc);
    }
    for (const agent of movers) {
      await agent.daemon.reporter.reportOnce();
      expect(agent.daemon.store.current.lastReport?.endpoint).toBe(returned.grpc);
    }
    // Each agent's client-set stream is open on its own replica again, and only there.
    const watching = async (replica: Replica) => {
      const answer = await fetch(`${replica.http}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      if (answer.status !== 200) throw new Error(`${replica.name} /metrics: ${answer.status}`);
      return sampleSum(await answer.text(), 'scn_agent_streams', { method: 'watch_clients' });
    };
    const streams = await eventually(
      async () => {
        const counts = { returned: await watching(returned), survivor: await watching(survivor) };
        if (counts.returned !== movers.length || counts.survivor !== stayers.length)
          throw new Error(`client-set streams: ${JSON.stringify(counts)}`);
        return counts;
      },
      10_000,
      200,
    );

    console.log(
      `replica ${returned.name} back on ${returned.grpc}: its ${movers.length} agents reported to it again ` +
        `after ${returnedAfterMs.join(', ')} ms (checks every ${PREFERRED_CHECK_MS}-${2 * PREFERRED_CHECK_MS} ms); ` +
        `client-set streams ${streams.returned} on ${returned.name}, ${streams.survivor} on ${survivor.name}`,
    );
  }, 60_000);
});
