import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { Client } from 'pg';
import { io, type Socket } from 'socket.io-client';
import type { AgentServiceClient } from '@scn/proto';
import { SHUTDOWN_STATUS_DETAILS } from '../../src/grpc/agent-grpc.server';
import { agentClient, enroll, nodeMetadata, TIER1_HARDWARE, watch } from '../support/agent-client';
import {
  BalancedLoad,
  type LoadOutcome,
  type LoadReplica,
  type LoadRequest,
  send,
} from '../support/balanced-load';
import { depositSsl } from '../support/ledger';
import { insertAccount, insertServers } from '../support/market-fixtures';
import { freePort, waitFor } from '../support/processes';
import { SmtpCapture } from '../support/smtp-capture';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

/**
 * A clean drain under load (docs/architecture.md#shutdown-and-drains), against the built
 * dist/main.js as production runs it: two replicas on one database behind a stand-in balancer
 * that polls readiness; replica A gets SIGTERM while keep-alive connections carry reads and
 * real purchases, an agent watches its client set over gRPC and a browser holds a socket.
 * Nothing may be reset or lost.
 */
const MAIN = join(__dirname, '..', '..', 'dist', 'main.js');
const DRAIN_DELAY_MS = 2000;
const SHUTDOWN_TIMEOUT_MS = 8000;
/** main.ts's EXIT_GRACE_MS: the documented bound is delay + timeout + this. */
const EXIT_GRACE_MS = 3000;

interface Replica extends LoadReplica {
  grpcPort: number;
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; at: number }>;
}

let db: TestDatabase;
let smtp: SmtpCapture;
let dataDir: string;
const replicas: Replica[] = [];

async function startReplica(name: string, env: Record<string, string>): Promise<Replica> {
  const port = await freePort();
  const grpcPort = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      GRPC_PORT: String(grpcPort),
      GRPC_HOST: '127.0.0.1',
      DATABASE_URL: db.url,
      SMTP_URL: smtp.url,
      APP_SECRET: 'drain-secret-drain-secret-drain-secret-0',
      DATA_DIR: join(dataDir, name),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.on('exit', (code) => resolve({ code, at: performance.now() })),
  );
  const replica: Replica = {
    name,
    port,
    grpcPort,
    child,
    output: () => output,
    exited,
    agent: new http.Agent({ keepAlive: true, maxSockets: 8 }),
  };
  replicas.push(replica);
  await waitFor(
    `replica ${name} ready`,
    async () => {
      if (child.exitCode !== null) throw new Error(`replica ${name} exited:\n${output}`);
      const response = await fetch(`http://127.0.0.1:${port}/health/ready`);
      return response.ok ? true : null;
    },
    30_000,
  );
  return replica;
}

let lastIp = 20;
async function register(replica: Replica, userType: 'client' | 'node') {
  lastIp += 1;
  const ip = `198.51.100.${lastIp}`;
  const email = `drain.${userType}.${randomUUID().slice(0, 8)}@example.com`;
  const post = (path: string, body: unknown) =>
    send(replica, {
      kind: 'auth',
      method: 'POST',
      path,
      headers: { 'X-Forwarded-For': ip },
      body,
    });
  const since = smtp.mails.length;
  expect((await post('/api/auth/generate-code', { email, userType })).status).toBe(200);
  const code = await smtp.codeFor(email, since);
  const answer = await post('/api/auth/register', {
    email,
    password: 'correct horse battery',
    userType,
    code,
    captchaToken: null,
  });
  expect(answer.status).toBe(201);
  return JSON.parse(answer.body!) as { uuid: string; token: string };
}

beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npm run build\` first`);
  dataDir = mkdtempSync(join(tmpdir(), 'scn-drain-'));
  db = await createTestDatabase();
  smtp = await SmtpCapture.start();
});

afterAll(async () => {
  for (const replica of replicas) {
    replica.agent.destroy();
    if (replica.child.exitCode === null && replica.child.signalCode === null) {
      replica.child.kill('SIGKILL');
      await replica.exited;
    }
  }
  await smtp?.stop();
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a replica drained under load', () => {
  // A balancer that probes readiness moves away during the delay. One that never probes learns
  // only from refused connections once the listener closed, and sends each of them again to the
  // other replica (refused at connect: never accepted, nothing of the request read).
  it.each([
    ['a balancer that polls readiness every 500 ms', 500],
    ['a balancer that learns only from refused connections', null],
  ])(
    'should answer every request, reset none, end agent streams UNAVAILABLE and exit within its bound (%s)',
    async (_balancer, probeEveryMs) => {
      const a = await startReplica('a', {
        DRAIN_DELAY_MS: String(DRAIN_DELAY_MS),
        SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      });
      const b = await startReplica('b', { DRAIN_DELAY_MS: '0' });

      // A client with SSL, servers to buy (one each, so no purchase refuses another), an agent.
      const client = await register(a, 'client');
      await depositSsl(db.url, client.uuid, 1_000_000);
      // The held purchase's buyer: its wallet's lock must not hold up the load's purchases.
      const holder = await register(a, 'client');
      await depositSsl(db.url, holder.uuid, 1_000);
      const owner = await insertAccount(db, { userType: 'node' });
      const serverIds = await insertServers(
        db,
        Array.from({ length: 1500 }, (_, i) => ({
          ownerUuid: owner,
          name: `Drain ${i}`,
          tier: 'tier4' as const,
          host: `drain-${i}.example.net`,
        })),
        new Date(),
      );
      const heldServer = serverIds.pop()!;
      const operator = await register(a, 'node');
      const token = await send(a, {
        kind: 'auth',
        method: 'POST',
        path: '/api/nodes/enrollment-tokens',
        headers: { Authorization: `Bearer ${operator.token}` },
        body: { tier: 'tier1' },
      });
      const agentA: AgentServiceClient = agentClient(a.grpcPort);
      const agentB: AgentServiceClient = agentClient(b.grpcPort);
      const node = await enroll(agentA, {
        enrollmentToken: (JSON.parse(token.body!) as { token: string }).token,
        tier: 'TIER_1',
        agentVersion: '0.1.0',
        hardware: TIER1_HARDWARE,
      });
      const metadata = nodeMetadata(node.nodeId, node.nodeSecret);
      const watching = watch(agentA, metadata);
      await watching.waitFor(() => watching.sets.length === 1);
      const watchEnded = new Promise<{ status: grpc.StatusObject; at: number }>((resolve) =>
        watching.onStatus((status) => resolve({ status, at: performance.now() })),
      );

      // A browser's socket on A.
      const browser: Socket = io(`http://127.0.0.1:${a.port}`, { transports: ['websocket'] });
      await waitFor('the socket', async () => (browser.connected ? true : null), 10_000, 20);
      const socketClosed = new Promise<{ reason: string; at: number; active: boolean }>((resolve) =>
        browser.once('disconnect', (reason) =>
          resolve({ reason, at: performance.now(), active: browser.active }),
        ),
      );

      const auth = { Authorization: `Bearer ${client.token}` };
      const purchase = (serverId: string, buyer = client): LoadRequest => ({
        kind: 'purchase',
        method: 'POST',
        path: '/api/clients/create-subscription',
        headers: { Authorization: `Bearer ${buyer.token}`, 'Idempotency-Key': randomUUID() },
        body: { uuid: buyer.uuid, serverIds: [serverId] },
      });
      let turn = 0;
      const load = new BalancedLoad(
        a,
        b,
        () => {
          turn += 1;
          const serverId = turn % 4 === 0 ? serverIds.pop() : undefined;
          if (serverId) return purchase(serverId);
          return turn % 2 === 0
            ? {
                kind: 'wallet',
                method: 'GET',
                path: `/wallet/client/${client.uuid}`,
                headers: auth,
              }
            : { kind: 'stats', method: 'GET', path: '/data/stats' };
        },
        { workers: 8, probeEveryMs, pauseMs: 5 },
      );
      load.start();
      await new Promise((resolve) => setTimeout(resolve, 1500));

      // A purchase that waits on a row lock across the listener's closing: an in-flight request.
      const locker = new Client({ connectionString: db.url });
      await locker.connect();
      locker.on('error', () => undefined); // a failed run drops the database under it
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM market_listings WHERE server_id = $1 FOR UPDATE', [
        heldServer,
      ]);

      const signalAt = performance.now();
      const signalAtLoad = load.elapsed();
      a.child.kill('SIGTERM');
      const notReady = await waitFor(
        'readiness 503',
        async () => {
          const response = await fetch(`http://127.0.0.1:${a.port}/health/ready`);
          return response.status === 503
            ? { at: performance.now(), body: (await response.json()) as Record<string, unknown> }
            : null;
        },
        DRAIN_DELAY_MS,
        10,
      );
      const readyAtLoad = load.elapsed();
      expect(notReady.body).toMatchObject({ status: 'not_ready', draining: true });

      // The agent's stream ended at the drain's start, before the listener closed; a new stream
      // on A is ended at once, and the agent gets its set from B.
      const ended = await watchEnded;
      expect(ended.status).toMatchObject({
        code: grpc.status.UNAVAILABLE,
        details: SHUTDOWN_STATUS_DETAILS,
      });
      expect(ended.at - signalAt).toBeLessThan(DRAIN_DELAY_MS);
      const late = watch(agentA, metadata);
      await late.waitFor(() => late.failure !== null);
      expect(late.failure?.code).toBe(grpc.status.UNAVAILABLE);
      const moved = watch(agentB, metadata);
      await moved.waitFor(() => moved.sets.length === 1);
      moved.cancel();

      // Late in the delay: purchases are written in batches, one at a time, so the ones after it
      // wait too, and go across the close with it.
      await new Promise((resolve) =>
        setTimeout(resolve, signalAt + DRAIN_DELAY_MS - 400 - performance.now()),
      );
      const heldAgent = { ...a, agent: new http.Agent({ keepAlive: true }) };
      const heldSentAt = load.elapsed();
      const held = send(heldAgent, purchase(heldServer, holder), heldSentAt);
      // Released once A refuses new connections: the purchase is in flight across the close.
      await waitFor(
        "A's listener closed",
        () =>
          new Promise<true | null>((resolve) => {
            const probe = net.connect(a.port, '127.0.0.1');
            probe.once('connect', () => {
              probe.destroy();
              resolve(null);
            });
            probe.once('error', (error: NodeJS.ErrnoException) =>
              resolve(error.code === 'ECONNREFUSED' ? true : null),
            );
          }),
        DRAIN_DELAY_MS + 2000,
        20,
      );
      const closedAt = performance.now();
      const closedAtLoad = load.elapsed();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await locker.query('ROLLBACK');
      await locker.end();
      const heldOutcome = { ...(await held), tookMs: load.elapsed() - heldSentAt };
      heldAgent.agent.destroy();

      const exit = await a.exited;
      await new Promise((resolve) => setTimeout(resolve, 500));
      const figures = await load.stop();
      const socket = await socketClosed;
      browser.close();
      agentA.close();
      agentB.close();

      const outcomes = [...figures.outcomes, heldOutcome];
      const failed = outcomes.filter((o) => o.error !== undefined);
      const onA = (o: LoadOutcome) => o.replica === 'a';
      const count = (filter: (o: LoadOutcome) => boolean) => outcomes.filter(filter).length;
      const purchases = outcomes.filter((o) => o.kind === 'purchase' && o.status === 200);
      /** An outcome without its body, for a readable failure. */
      const brief = ({ body: _body, ...rest }: LoadOutcome) => rest;
      const stopped = a
        .output()
        .split('\n')
        .filter((line) => line.includes('"msg":"Stopped"'))
        .map((line) => JSON.parse(line) as { forced: string[]; exitMs: number });
      process.stdout.write(
        `\n[drain, probes ${probeEveryMs ?? 'none'}] requests ${outcomes.length} (A ${count(onA)}, of them after SIGTERM ` +
          `${count((o) => onA(o) && o.sentAt >= signalAtLoad)}; B ${count((o) => !onA(o))}); ` +
          `purchases ${purchases.length}; resets ${count((o) => o.error === 'ECONNRESET' || o.error === 'EPIPE')}; ` +
          `failed ${failed.length}; in flight across the listener's close ${count((o) => onA(o) && o.sentAt < closedAtLoad && o.sentAt + (o.tookMs ?? 0) > closedAtLoad)}; refused at connect and redispatched ${figures.redispatched.length}; ` +
          `readiness 503 after ${Math.round(notReady.at - signalAt)} ms; balancer switched at ` +
          `+${(figures.switchedAt ?? NaN) - signalAtLoad} ms; agent stream ended after ` +
          `${Math.round(ended.at - signalAt)} ms; listener closed after ${Math.round(closedAt - signalAt)} ms; ` +
          `socket closed after ${Math.round(socket.at - signalAt)} ms; exit after ` +
          `${Math.round(exit.at - signalAt)} ms (bound ${DRAIN_DELAY_MS + SHUTDOWN_TIMEOUT_MS + EXIT_GRACE_MS} ms)\n`,
      );

      // Nothing reset, nothing lost: every request sent got its whole answer, and a good one.
      expect(failed.map(brief)).toEqual([]);
      expect(outcomes.filter((o) => o.status !== 200).map(brief)).toEqual([]);
      expect(heldOutcome).toMatchObject({ status: 200, connection: 'close' });
      // Everything A answered once it was draining told the client to close the connection.
      expect(
        outcomes
          .filter((o) => onA(o) && o.sentAt >= readyAtLoad && o.connection !== 'close')
          .map(brief),
      ).toEqual([]);
      // Every purchase answered happened once, and none happened unanswered.
      const rows = await db.query<{ id: string }>(
        `SELECT id FROM subscriptions WHERE owner_uuid = ANY($1::uuid[])`,
        [[client.uuid, holder.uuid]],
      );
      const answered = purchases.map(
        (o) => (JSON.parse(o.body!) as { subscriptionId: string }).subscriptionId,
      );
      expect(rows.map((r) => r.id).sort()).toEqual(answered.sort());
      // The browser was told nothing: its transport closed after the delay, and it reconnects.
      expect(socket).toMatchObject({ reason: 'transport close', active: true });
      expect(socket.at - signalAt).toBeGreaterThanOrEqual(DRAIN_DELAY_MS - 50);
      // A clean exit within the documented bound, with nothing cut.
      expect(exit.code).toBe(0);
      expect(exit.at - signalAt).toBeLessThan(DRAIN_DELAY_MS + SHUTDOWN_TIMEOUT_MS + EXIT_GRACE_MS);
      expect(stopped).toEqual([expect.objectContaining({ forced: [] })]);
      // Without probes, the balancer kept sending to A until A refused a connection.
      if (probeEveryMs === null) {
        expect(figures.redispatched.length).toBeGreaterThan(0);
        expect(figures.redispatched.every((o) => o.error === 'ECONNREFUSED')).toBe(true);
      }
    },
    120_000,
  );
});
