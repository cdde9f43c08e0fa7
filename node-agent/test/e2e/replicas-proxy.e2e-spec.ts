import { createHash, createHmac, randomUUID, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type WebSocket } from 'playwright-core';
import { io, type Socket } from 'socket.io-client';
import type { SubscriptionCreationResponse } from '@scn/proto';
import type { AgentDaemon } from '../../src/commands/run';
import type { AgentConfig } from '../../src/config/agent-config';
import { hasDatabase } from './control-plane-kit';
import { eventually, freePort } from './proxy-core.support';
import {
  httpsRequest,
  type Replica,
  startCaddy,
  sampleSum,
  startReplica,
  stickyCookie,
} from './replicas-proxy.support';
import { enrollV2rayNodeWithToken, startV2rayDaemon, V2RAY } from './v2ray-node';

/**
 * The production topology of docs/deploy.md without Docker: two control plane
 * replicas (the built dist/main.js on one database) behind Debian's Caddy running
 * docker/Caddyfile, which terminates TLS (a local CA's certificate) for HTTPS, WebSocket and the
 * agents' gRPC. Agents on real v2ray enroll and report through the proxy; a purchase made
 * through either replica reaches every agent's core; a replica drained with SIGTERM under load
 * fails no request through the proxy; a realtime socket whose replica is killed reconnects
 * through the proxy to the other one and hears the next event.
 */
const ROOT = path.join(__dirname, '../../..');
const MAIN = path.join(ROOT, 'control-plane', 'dist', 'main.js');
const CADDYFILE = path.join(ROOT, 'docker', 'Caddyfile');
const AGENTS = 2;
const METRICS_TOKEN = 'replicas-proxy-metrics-token';
const JOB_PERIOD_MS = 2_000;

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const hasCaddy = existsSync('/usr/bin/caddy');
const hasV2ray = existsSync(V2RAY);
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`replicas-proxy e2e skipped: ${CHROMIUM} is missing`);
if (!hasCaddy) console.warn('replicas-proxy e2e skipped: caddy is missing (apt-get install caddy)');
if (!hasV2ray) console.warn(`replicas-proxy e2e skipped: ${V2RAY} is missing`);
const describeTopology =
  hasCaddy && hasV2ray && hasChromium && hasDatabase ? describe : describe.skip;

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

describeTopology('two replicas behind a TLS-terminating Caddy (docs/deploy.md)', () => {
  let workDir: string;
  let db: TestDatabase;
  let smtp: SmtpCapture;
  let ca: Buffer;
  let caFile: string;
  let caddy: ReturnType<typeof startCaddy>;
  let httpsPort: number;
  let grpcPort: number;
  let env: Record<string, string>;
  const ports = new Map<string, { httpPort: number; grpcPort: number }>();
  const replicas = new Map<string, Replica>();
  const agents: Array<{ config: AgentConfig; daemon: AgentDaemon }> = [];
  const sockets: Socket[] = [];
  let browser: Browser | undefined;
  const io0 = { out: () => undefined, err: () => undefined };
  let operator = { uuid: '', token: '', email: '' };
  let spki = '';

  const proxy = (agent?: https.Agent) => ({ port: httpsPort, ca, agent });
  /**
   * Caddy's sticky cookie for a replica: lb_policy cookie's value is the HMAC-SHA256 of the
   * upstream's address under the (here empty) secret, so a request can name its replica.
   */
  const cookieFor = (name: string) =>
    `scn_replica=${createHmac('sha256', '')
      .update(`127.0.0.1:${ports.get(name)!.httpPort}`)
      .digest('hex')}`;

  async function call<T>(
    route: string,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> {
    const answer = await httpsRequest(proxy(), 'POST', route, headers, body);
    if (answer.status >= 300) throw new Error(`${route} answered ${answer.status}: ${answer.body}`);
    return JSON.parse(answer.body) as T;
  }

  /** Signs up through the proxy (code by SMTP). */
  async function register(userType: 'client' | 'node') {
    const email = `proxy.${userType}.${randomUUID().slice(0, 8)}@example.com`;
    const since = smtp.mails.length;
    await call('/api/auth/generate-code', { email, userType });
    const code = await smtp.codeFor(email, since);
    const account = await call<{ uuid: string; token: string }>('/api/auth/register', {
      email,
      password: 'correct horse battery',
      userType,
      code,
      captchaToken: null,
    });
    return { ...account, email };
  }

  async function enrollmentToken(): Promise<string> {
    const body = await call<{ token: string }>(
      '/api/nodes/enrollment-tokens',
      { tier: 'tier1' },
      { authorization: `Bearer ${operator.token}` },
    );
    return body.token;
  }

  async function start(name: string): Promise<Replica> {
    const replica = await startReplica(MAIN, name, ports.get(name)!, {
      ...env,
      DATA_DIR: path.join(workDir, `replica-${name}`),
    });
    replicas.set(name, replica);
    return replica;
  }

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npm run build\` first`);
    const load = (file: string) =>
      import(path.join(ROOT, 'control-plane', file)) as Promise<Record<string, unknown>>;
    const [databases, mail, localCa] = await Promise.all([
      load('test/support/test-database'),
      load('test/support/smtp-capture'),
      load('test/support/local-ca'),
    ]);
    db = await (databases.createTestDatabase as () => Promise<TestDatabase>)();
    smtp = await (mail.SmtpCapture as { start(): Promise<SmtpCapture> }).start();
    workDir = await mkdtemp(path.join(tmpdir(), 'scn-replicas-proxy-'));
    const certificates = (
      localCa.makeLocalCa as (dir: string) => {
        caPem: string;
        certificatePem: string;
        keyPem: string;
      }
    )(workDir);
    caFile = certificates.caPem;
    ca = readFileSync(caFile);
    // Chromium trusts the proxy's certificate by its public key (no system CA store is touched).
    spki = createHash('sha256')
      .update(
        new X509Certificate(readFileSync(certificates.certificatePem)).publicKey.export({
          type: 'spki',
          format: 'der',
        }),
      )
      .digest('base64');
    httpsPort = await freePort();
    grpcPort = await freePort();
    for (const name of ['a', 'b']) {
      ports.set(name, { httpPort: await freePort(), grpcPort: await freePort() });
    }
    env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: db.url,
      PUBLIC_URL: `https://127.0.0.1:${httpsPort}`,
      SMTP_URL: smtp.url,
      SUPPORT_EMAIL: 'support@scn.test',
      MAIL_FROM: 'SCN <no-reply@scn.test>',
      APP_SECRET: 'replicas-proxy-secret-replicas-proxy-sec',
      TRUST_PROXY: '127.0.0.1',
      DRAIN_DELAY_MS: '2000',
      METRICS_TOKEN: METRICS_TOKEN,
      SHUTDOWN_TIMEOUT_MS: '5000',
      // Free subscriptions (the launch period): the purchase needs no deposit.
      LAUNCH_PERIOD_ENDS: '2099-12-31',
      // The job whose runs are counted across the replicas, due every 2 s.
      REACHABILITY_JOB_INTERVAL_MS: String(JOB_PERIOD_MS),
    };
    // One after the other: the first one migrates the shared database.
    for (const name of ['a', 'b']) await start(name);
    caddy = startCaddy(CADDYFILE, workDir, {
      SCN_DOMAIN: '127.0.0.1',
      SCN_HTTPS_PORT: String(httpsPort),
      SCN_GRPC_PORT: String(grpcPort),
      SCN_TLS: `${certificates.certificatePem} ${certificates.keyPem}`,
      SCN_HTTP_UPSTREAMS: ['a', 'b'].map((n) => `127.0.0.1:${ports.get(n)!.httpPort}`).join(' '),
      SCN_GRPC_UPSTREAMS: ['a', 'b']
        .map((n) => `h2c://127.0.0.1:${ports.get(n)!.grpcPort}`)
        .join(' '),
    });
    await eventually(async () => {
      if (caddy.child.exitCode !== null) throw new Error(`caddy exited:\n${caddy.output()}`);
      const answer = await httpsRequest(proxy(), 'GET', '/health/ready');
      if (answer.status !== 200) throw new Error(`proxy answered ${answer.status}`);
    }, 30_000);
    operator = await register('node');
  }, 240_000);

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await browser?.close();
    for (const agent of agents) await agent.daemon.stop().catch(() => undefined);
    for (const replica of replicas.values()) {
      if (replica.child.exitCode === null && replica.child.signalCode === null) {
        replica.child.kill('SIGKILL');
        await replica.exited;
      }
    }
    if (caddy && caddy.child.exitCode === null) {
      caddy.child.kill('SIGTERM');
      await caddy.exited;
    }
    await smtp?.stop();
    await db?.drop();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  }, 60_000);

  it("should name each replica by Caddy's sticky cookie", async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 40 && seen.size < 2; i += 1) {
      const cookie = stickyCookie(await httpsRequest(proxy(), 'GET', '/data/stats'));
      if (cookie) seen.add(cookie);
    }
    expect([...seen].sort()).toEqual([cookieFor('a'), cookieFor('b')].sort());
  });

  it('should enroll agents through the proxy with TLS (--ca-file) and have them report there', async () => {
    const server = `127.0.0.1:${grpcPort}`;
    for (let i = 0; i < AGENTS; i += 1) {
      const enrolled = await enrollV2rayNodeWithToken({
        token: await enrollmentToken(),
        server,
        workDir: path.join(workDir, `node-${i}`),
        io: io0,
        flags: { caFile },
      });
      expect(enrolled.config.caFile).toBe(caFile);
      const daemon = await startV2rayDaemon(enrolled, io0);
      agents.push({ config: enrolled.config, daemon });
    }
    for (const agent of agents) {
      await agent.daemon.reporter.reportOnce();
      expect(agent.daemon.store.current.lastReport).toMatchObject({
        accepted: true,
        endpoint: server,
      });
    }
  }, 120_000);

  it("should bring a purchase made through either replica to every agent's core", async () => {
    expect(agents).toHaveLength(AGENTS);
    const client = await register('client');
    const bought: Record<string, number> = {};
    for (const name of ['a', 'b']) {
      const sentAt = Date.now();
      const answer = await httpsRequest(
        proxy(),
        'POST',
        '/api/clients/create-subscription',
        {
          authorization: `Bearer ${client.token}`,
          'idempotency-key': randomUUID(),
          cookie: cookieFor(name),
        },
        {
          uuid: client.uuid,
          serverIds: agents.map((a) => a.config.nodeId),
          billingCycle: 'monthly',
        },
      );
      expect(answer.status).toBe(200);
      // Caddy keeps the replica the cookie names: it sets no new one.
      expect(stickyCookie(answer)).toBeUndefined();
      const uuid = (JSON.parse(answer.body) as SubscriptionCreationResponse).subscription.uuid;
      await Promise.all(
        agents.map((agent) =>
          eventually(
            async () => {
              // Written only once the core took the set (client-set-applier.ts).
              if (!agent.daemon.store.current.allowedClients.includes(uuid))
                throw new Error(`${agent.config.nodeId} has not applied the purchase on ${name}`);
            },
            15_000,
            20,
          ),
        ),
      );
      bought[name] = Date.now() - sentAt;
    }
    console.log(
      `[replicas-proxy] purchase through a reached ${AGENTS} cores in ${bought.a} ms, through b in ${bought.b} ms`,
    );
  }, 60_000);

  it('should run each periodic job once per period across both replicas, as their metrics and the record of runs agree', async () => {
    const { Client } = await import('pg');
    const database = new Client({ connectionString: db.url });
    await database.connect();
    // The reachability upkeep: its interval is a setting (2 s here), so many periods pass in
    // seconds; the one-minute jobs share its scheduler (job-scheduler.ts).
    const JOB = 'reachability-upkeep';
    const recorded = async () => {
      const { rows } = await database.query<{ runs: string; owners: string; periods: string }>(
        `SELECT count(*) AS runs, count(DISTINCT owner) AS owners, count(DISTINCT period) AS periods
         FROM job_runs WHERE job = $1 AND outcome = 'ok'`,
        [JOB],
      );
      return { runs: Number(rows[0]!.runs), periods: Number(rows[0]!.periods) };
    };
    const scrape = async (name: string) => {
      const answer = await fetch(`http://127.0.0.1:${ports.get(name)!.httpPort}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(answer.status).toBe(200);
      return answer.text();
    };
    try {
      // Both replicas have ticked in at least five periods of the job.
      await eventually(
        async () => {
          if ((await recorded()).periods < 5) throw new Error(`${JOB} has not run 5 times yet`);
        },
        60_000,
        500,
      );
      // The runs each replica counts sum to the runs recorded, one a period: had both replicas
      // run a period, they would count twice what the record of runs holds.
      await eventually(
        async () => {
          const before = await recorded();
          const [a, b] = await Promise.all([scrape('a'), scrape('b')]);
          const after = await recorded();
          const ran = ['ok', 'failed'].reduce(
            (sum, outcome) =>
              sum +
              sampleSum(a, 'scn_job_runs_total', { job_name: JOB, outcome }) +
              sampleSum(b, 'scn_job_runs_total', { job_name: JOB, outcome }),
            0,
          );
          const skipped =
            sampleSum(a, 'scn_job_runs_total', { job_name: JOB, outcome: 'skipped' }) +
            sampleSum(b, 'scn_job_runs_total', { job_name: JOB, outcome: 'skipped' });
          if (before.runs !== before.periods) throw new Error(`${JOB}: more runs than periods`);
          if (ran !== before.runs && ran !== after.runs)
            throw new Error(`${JOB}: the replicas counted ${ran} runs, ${before.runs} recorded`);
          // Every agent holds its client-list stream on one replica or the other.
          const watching =
            sampleSum(a, 'scn_agent_streams', { method: 'watch_clients' }) +
            sampleSum(b, 'scn_agent_streams', { method: 'watch_clients' });
          if (watching !== AGENTS) throw new Error(`${watching} agents watch, ${AGENTS} enrolled`);
          console.log(
            `[replicas-proxy] ${JOB}: ${before.runs} runs in ${before.periods} periods, ${skipped} ticks found the period taken; ${watching} agents watching`,
          );
        },
        20_000,
        1_000,
      );
    } finally {
      await database.end();
    }
  }, 90_000);

  it('should fail no request through the proxy while a replica drains on SIGTERM', async () => {
    const agent = new https.Agent({ keepAlive: true, maxSockets: 4 });
    const outcomes: Array<{ status: number; error?: string }> = [];
    let running = true;
    const worker = async () => {
      while (running) {
        try {
          const answer = await httpsRequest(proxy(agent), 'GET', '/data/stats');
          outcomes.push({ status: answer.status });
        } catch (error) {
          outcomes.push({ status: 0, error: String(error) });
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    const workers = Array.from({ length: 4 }, worker);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const b = replicas.get('b')!;
    const before = outcomes.length;
    b.child.kill('SIGTERM');
    const code = await b.exited;
    await new Promise((resolve) => setTimeout(resolve, 500));
    running = false;
    await Promise.all(workers);
    agent.destroy();
    const failed = outcomes.filter((o) => o.status !== 200);
    console.log(
      `[replicas-proxy] drain of b behind the proxy: ${outcomes.length} requests ` +
        `(${outcomes.length - before} after SIGTERM), ${failed.length} failed`,
    );
    expect(code).toBe(0);
    expect(outcomes.length - before).toBeGreaterThan(50);
    expect(failed).toEqual([]);
    // A rolling upgrade's next step: b comes back on its ports, and the proxy uses it again.
    await start('b');
    await eventually(async () => {
      const answer = await httpsRequest(proxy(), 'GET', '/data/stats', { cookie: cookieFor('b') });
      if (stickyCookie(answer) !== undefined) throw new Error('the proxy has not taken b back');
    }, 15_000);
  }, 60_000);

  it('should reconnect a realtime socket through the proxy when its replica dies, and deliver the next event', async () => {
    const events: string[] = [];
    let connects = 0;
    const socket = io(`https://127.0.0.1:${httpsPort}`, {
      path: '/socket.io',
      transports: ['websocket'],
      ca: ca.toString('utf8'),
      extraHeaders: { cookie: cookieFor('a') },
      reconnectionDelay: 200,
      reconnectionDelayMax: 1000,
    });
    sockets.push(socket);
    socket.on('connect', () => (connects += 1));
    socket.on('server-list-updated', (event: { reason: string }) => events.push(event.reason));
    await eventually(async () => {
      if (!socket.connected) throw new Error('not connected');
    }, 10_000);

    // The portal in Chromium, signed in as the operator: its node dashboard listens for
    // server-list-updated on the portal's own socket.io client, through the proxy, on a.
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', `--ignore-certificate-errors-spki-list=${spki}`],
    });
    const origin = `https://127.0.0.1:${httpsPort}`;
    const context = await browser.newContext({ baseURL: origin, locale: 'en-US' });
    const [name, value] = cookieFor('a').split('=') as [string, string];
    await context.addCookies([{ name, value, url: origin }]);
    // What the portal stores after sign-in, before its first script runs.
    const seed = {
      user: JSON.stringify({ uuid: operator.uuid, email: operator.email, userType: 'node' }),
      token: operator.token,
      cookieConsent: JSON.stringify({
        essential: true,
        analytics: false,
        marketing: false,
        timestamp: '2025-01-01T00:00:00.000Z',
      }),
    };
    await context.addInitScript({
      content: `for (const [k, v] of Object.entries(${JSON.stringify(seed)})) localStorage.setItem(k, v);`,
    });
    const page = await context.newPage();
    const browserSockets: Array<{ socket: WebSocket; heard: string[]; closed: boolean }> = [];
    page.on('websocket', (socket) => {
      if (!socket.url().includes('/socket.io/')) return;
      const entry = { socket, heard: [] as string[], closed: false };
      browserSockets.push(entry);
      socket.on('framereceived', (frame) => {
        const text = typeof frame.payload === 'string' ? frame.payload : frame.payload.toString();
        if (text.includes('server-list-updated')) entry.heard.push(text);
      });
      socket.on('close', () => (entry.closed = true));
    });
    const polling: string[] = [];
    page.on('requestfinished', (request) => {
      if (request.url().includes('/socket.io/') && request.url().includes('polling'))
        polling.push(request.url().slice(origin.length));
    });
    page.on('requestfailed', (request) => {
      if (request.url().includes('/socket.io/'))
        polling.push(`failed ${request.url().slice(origin.length)}`);
    });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    page.on('requestfailed', (request) =>
      pageErrors.push(`failed ${request.url()}: ${request.failure()?.errorText ?? ''}`),
    );
    await page.goto('/node-dashboard');
    await eventually(async () => {
      if (browserSockets.length !== 1)
        throw new Error(
          `the portal has no socket yet at ${page.url()} (socket.io requests: ${polling.join(', ')}; errors: ${pageErrors.join(' | ')})`,
        );
    }, 45_000);

    const a = replicas.get('a')!;
    const killedAt = Date.now();
    a.child.kill('SIGKILL');
    await a.exited;
    await eventually(
      async () => {
        if (connects < 2 || !socket.connected) throw new Error('not reconnected');
      },
      15_000,
      20,
    );
    const reconnectedMs = Date.now() - killedAt;
    // The portal's socket closed with a, and the portal opened another through the proxy.
    await eventually(
      async () => {
        if (!browserSockets[0]!.closed || browserSockets.length < 2)
          throw new Error(
            `the portal has not reconnected: ${JSON.stringify(
              browserSockets.map((e) => ({ url: e.socket.url(), closed: e.closed })),
            )}; polling: ${polling.join(' ')}`,
          );
      },
      30_000,
      50,
    );
    const browserReconnectedMs = Date.now() - killedAt;

    // The next event: a node enrolls through the proxy (now on b alone).
    const before = events.length;
    // As an operator would: enroll again while the proxy still counts both replicas failed (b
    // refused connections while it restarted after the drain above, a is dead: Caddy's passive
    // health keeps each out for fail_duration, and answers 503 meanwhile). The token is spent
    // only by an enrollment that reached a replica.
    const token = await enrollmentToken();
    let attempt = 0;
    await eventually(
      () =>
        enrollV2rayNodeWithToken({
          token,
          server: `127.0.0.1:${grpcPort}`,
          workDir: path.join(workDir, `node-late-${(attempt += 1)}`),
          io: io0,
          flags: { caFile },
        }),
      30_000,
      1_000,
    );
    await eventually(
      async () => {
        if (!events.slice(before).includes('added')) throw new Error('no event after reconnect');
        const latest = browserSockets[browserSockets.length - 1]!;
        if (latest.closed || !latest.heard.some((text) => text.includes('"added"')))
          throw new Error('the portal heard no event after reconnecting');
      },
      10_000,
      20,
    );
    // The agents of a report to b through the same proxy address.
    for (const agent of agents) {
      await eventually(
        async () => {
          await agent.daemon.reporter.reportOnce();
          const last = agent.daemon.store.current.lastReport;
          if (!last?.accepted || Date.parse(last.at) < killedAt) throw new Error('no report yet');
        },
        15_000,
        100,
      );
    }
    console.log(
      `[replicas-proxy] a SIGKILLed: the socket.io client reconnected through the proxy after ${reconnectedMs} ms, ` +
        `the portal in Chromium after ${browserReconnectedMs} ms (${browserSockets.length} sockets), and both heard the next event; ` +
        `${AGENTS} agents report again`,
    );
  }, 90_000);
});
