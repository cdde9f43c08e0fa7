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
import { BalancedLoad, type LoadOutcome, type LoadRequest, send } from '../support/balanced-load';
import {
  depositThroughChainAt,
  type FundingChain,
  startFundingChain,
} from '../support/chain-deposits';
import { insertAccount, insertServers } from '../support/market-fixtures';
import { waitFor } from '../support/processes';
import {
  killReplica,
  MAIN,
  type Replica,
  type ReplicaWorld,
  registerOn,
  startReplica as startOne,
} from '../support/replicas';
import { SmtpCapture } from '../support/smtp-capture';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

/**
 * A clean drain under load (docs/architecture.md#shutdown-and-drains), against the built
 * dist/main.js as production runs it: two replicas on one database behind a stand-in balancer;
 * replica A gets SIGTERM while keep-alive connections carry reads and real purchases, a stake
 * waits on a row lock across the listener's close, an agent watches its client set over gRPC
 * and a browser holds a socket. Nothing may be lost, and behind a balancer that honours
 * readiness nothing may be reset. The figures of each run are printed.
 */
const DRAIN_DELAY_MS = 3000;
const SHUTDOWN_TIMEOUT_MS = 8000;
/** main.ts's EXIT_GRACE_MS: the documented bound is delay + timeout + this. */
const EXIT_GRACE_MS = 3000;

let db: TestDatabase;
let world: ReplicaWorld;
let funding: FundingChain;
const replicas: Replica[] = [];

async function startReplica(name: string, env: Record<string, string>): Promise<Replica> {
  const replica = await startOne(world, name, { ...funding.env, ...env });
  replicas.push(replica);
  return replica;
}

const register = (replica: Replica, userType: 'client' | 'node') =>
  registerOn(world, replica, userType);

beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npm run build\` first`);
  db = await createTestDatabase();
  funding = await startFundingChain();
  world = {
    databaseUrl: db.url,
    smtp: await SmtpCapture.start(),
    dataDir: mkdtempSync(join(tmpdir(), 'scn-drain-')),
  };
});

afterAll(async () => {
  for (const replica of replicas) await killReplica(replica);
  await world?.smtp.stop();
  await funding?.stop();
  await db?.drop();
  if (world) rmSync(world.dataDir, { recursive: true, force: true });
});

describe('a replica drained under load', () => {
  // A balancer that probes readiness moves away during the delay: nothing may fail. One that
  // never probes learns only from refused connections once the listener closed, and sends each
  // of them again to the other replica (refused at connect: never accepted, nothing read). It
  // may also see resets: connections the kernel had accepted but the process had not yet taken
  // when the listener closed (more of them the busier the machine). Those were never read, so
  // none of their purchases happened: a retry with the same Idempotency-Key is safe.
  it.each([
    ['a balancer that polls readiness every 500 ms', 500],
    ['a balancer that learns only from refused connections', null],
  ])(
    'should answer every request, lose none, end agent streams UNAVAILABLE and exit within its bound (%s)',
    async (_balancer, probeEveryMs) => {
      const a = await startReplica('a', {
        DRAIN_DELAY_MS: String(DRAIN_DELAY_MS),
        SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
        // The held stake below waits on a row lock for a few seconds.
        DB_LOCK_TIMEOUT_MS: '20000',
        DB_STATEMENT_TIMEOUT_MS: '30000',
        DB_QUERY_TIMEOUT_MS: '40000',
      });
      const b = await startReplica('b', { DRAIN_DELAY_MS: '0' });

      // A client with SSL, servers to buy (one each, so no purchase refuses another), an
      // operator with SSL to stake and an enrolled node.
      const client = await register(a, 'client');
      const fund = (who: { uuid: string; token: string }, ssl: number) =>
        depositThroughChainAt(`http://127.0.0.1:${a.port}`, funding, who, ssl);
      await fund(client, 20_000);
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
      const operator = await register(a, 'node');
      await fund(operator, 1_000);
      const operatorAuth = { Authorization: `Bearer ${operator.token}` };
      const token = await send(a, {
        kind: 'auth',
        method: 'POST',
        path: '/api/nodes/enrollment-tokens',
        headers: operatorAuth,
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
      let turn = 0;
      const load = new BalancedLoad(
        a,
        b,
        (): LoadRequest => {
          turn += 1;
          const serverId = turn % 4 === 0 ? serverIds.pop() : undefined;
          if (serverId) {
            return {
              kind: 'purchase',
              method: 'POST',
              path: '/api/clients/create-subscription',
              headers: { ...auth, 'Idempotency-Key': randomUUID() },
              body: { uuid: client.uuid, serverIds: [serverId] },
            };
          }
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

      // A stake that waits on its wallet's row lock across the listener's close: a request in
      // flight (a stake, not a purchase: purchases are written in batches, one batch at a time,
      // and a held one would hold up the load's purchases behind it).
      const locker = new Client({ connectionString: db.url });
      await locker.connect();
      locker.on('error', () => undefined); // a failed run drops the database under it
      await locker.query('BEGIN');
      await locker.query(
        `SELECT 1 FROM ledger_accounts WHERE kind = 'node_wallet' AND owner_uuid = $1 FOR UPDATE`,
        [operator.uuid],
      );

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
      const heldAgent = { ...a, agent: new http.Agent({ keepAlive: true }) };
      const heldSentAt = load.elapsed();
      const held = send(
        heldAgent,
        {
          kind: 'stake',
          method: 'POST',
          path: `/api/nodes/${operator.uuid}/stake`,
          headers: { ...operatorAuth, 'Idempotency-Key': randomUUID() },
          body: { amount: 100 },
        },
        heldSentAt,
      );

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

      // The lock goes once A refuses new connections: the stake was in flight across the close.
      await waitFor('the listener closed', () => refused(a.port), DRAIN_DELAY_MS + 5000, 20);
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
      const onA = (o: LoadOutcome) => o.replica === 'a';
      const count = (filter: (o: LoadOutcome) => boolean) => outcomes.filter(filter).length;
      const purchases = outcomes.filter((o) => o.kind === 'purchase' && o.status === 200);
      const resets = outcomes.filter((o) => o.error === 'ECONNRESET');
      /** An outcome without its body, for a readable failure. */
      const brief = ({ body: _body, ...rest }: LoadOutcome) => rest;
      const stopped = a
        .output()
        .split('\n')
        .filter((line) => line.includes('"msg":"Stopped"'))
        .map((line) => JSON.parse(line) as { forced: string[]; exitMs: number });
      const since = (at: number) => Math.round(at - signalAt);
      process.stdout.write(
        `\n[drain, readiness probes ${probeEveryMs ? `every ${probeEveryMs} ms` : 'none'}] ${JSON.stringify(
          {
            requests: outcomes.length,
            onA: count(onA),
            onAAfterSigterm: count((o) => onA(o) && o.sentAt >= signalAtLoad),
            onB: count((o) => !onA(o)),
            purchases: purchases.length,
            resets: resets.length,
            otherFailures: count((o) => o.error !== undefined && o.error !== 'ECONNRESET'),
            inFlightAcrossClose: count(
              (o) => onA(o) && o.sentAt < closedAtLoad && o.sentAt + (o.tookMs ?? 0) > closedAtLoad,
            ),
            refusedAndSentAgain: figures.redispatched.length,
            readiness503Ms: since(notReady.at),
            balancerSwitchedMs:
              figures.switchedAt === null ? null : figures.switchedAt - signalAtLoad,
            agentStreamEndedMs: since(ended.at),
            listenerClosedMs: since(closedAt),
            socketClosedMs: since(socket.at),
            exitMs: since(exit.at),
            boundMs: DRAIN_DELAY_MS + SHUTDOWN_TIMEOUT_MS + EXIT_GRACE_MS,
          },
        )}\n`,
      );

      // Nothing lost: every request sent got its whole answer, and a good one; with a balancer
      // that honours readiness, nothing reset either.
      const answered = outcomes.filter((o) => o.error === undefined);
      expect(answered.filter((o) => o.status !== 200).map(brief)).toEqual([]);
      if (probeEveryMs !== null) expect(resets.map(brief)).toEqual([]);
      expect(outcomes.filter((o) => o.error !== undefined && o.error !== 'ECONNRESET')).toEqual([]);
      expect(resets.filter((o) => !onA(o) || o.sentAt < readyAtLoad).map(brief)).toEqual([]);
      expect(heldOutcome).toMatchObject({ status: 200, connection: 'close' });
      const [stake] = await db.query<{ balance: string }>(
        `SELECT balance_micro::text AS balance FROM ledger_accounts WHERE kind = 'stake' AND owner_uuid = $1`,
        [operator.uuid],
      );
      expect(stake?.balance).toBe('100000000');
      // Everything A answered once it was draining told the client to close the connection.
      expect(
        answered
          .filter((o) => onA(o) && o.sentAt >= readyAtLoad && o.connection !== 'close')
          .map(brief),
      ).toEqual([]);
      // Every purchase answered happened once, and none happened unanswered (a reset one either).
      const rows = await db.query<{ id: string }>(
        `SELECT id FROM subscriptions WHERE owner_uuid = $1`,
        [client.uuid],
      );
      const bought = purchases.map(
        (o) => (JSON.parse(o.body!) as { subscriptionId: string }).subscriptionId,
      );
      expect(rows.map((r) => r.id).sort()).toEqual(bought.sort());
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
    180_000,
  );
});

/** Whether a connection to `port` is refused now (true) or taken (null: ask again). */
function refused(port: number): Promise<true | null> {
  return new Promise((resolve) => {
    const probe = net.connect(port, '127.0.0.1');
    probe.once('connect', () => {
      probe.destroy();
      resolve(null);
    });
    probe.once('error', (error: NodeJS.ErrnoException) =>
      resolve(error.code === 'ECONNREFUSED' ? true : null),
    );
  });
}
