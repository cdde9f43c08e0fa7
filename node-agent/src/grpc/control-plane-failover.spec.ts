import { randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import {
  AGENT_PROTO_PATH,
  type AgentProtoGrpcType,
  type ClientSet,
  type ClientSet__Output,
  GRPC_LOADER_OPTIONS,
  type ReportRequest__Output,
  type ReportResponse,
} from '@scn/proto';
import type { ClientSetWatch } from './client-set-watch';
import { ControlPlaneClient } from './control-plane-client';
import { type Lookup, spreadIndex } from './control-plane-endpoints';
import { PreferredEndpointReturn } from './preferred-endpoint-return';

const proto = grpc.loadPackageDefinition(
  protoLoader.loadSync(AGENT_PROTO_PATH, GRPC_LOADER_OPTIONS),
) as unknown as AgentProtoGrpcType;

/**
 * A bare control plane replica on loopback: answers reports on ReportStream and pushes its
 * client set (its own versions, one UUID naming the replica) to every WatchClients stream.
 */
async function replica(name: string, host = '127.0.0.1', port = 0) {
  const versionBase = { a: 100, b: 200 }[name] ?? 300;
  const seen = { reports: 0, watches: 0 };
  const streams = new Set<grpc.ServerDuplexStream<ReportRequest__Output, ReportResponse>>();
  const server = new grpc.Server();
  server.addService(proto.scn.agent.v1.AgentService.service, {
    ReportStream: (call: grpc.ServerDuplexStream<ReportRequest__Output, ReportResponse>) => {
      streams.add(call);
      call.on('data', () => {
        seen.reports += 1;
        call.write({ accepted: true, serverTimeMs: String(Date.now()), handlingMs: 0 });
      });
      call.on('end', () => call.end());
    },
    WatchClients: (call: grpc.ServerWritableStream<unknown, ClientSet>) => {
      seen.watches += 1;
      call.write({ version: String(versionBase + seen.watches), clientUuids: [name] });
    },
  });
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:${port}`, grpc.ServerCredentials.createInsecure(), (error, p) =>
      error ? reject(error) : resolve(p),
    ),
  );
  return {
    port: bound,
    target: `${host}:${bound}`,
    seen,
    /** The replica dies: every connection drops at once (as SIGKILL leaves them). */
    kill: () => server.forceShutdown(),
    /** The replica ends its report streams cleanly, as one shutting down does. */
    endReportStreams: () => {
      for (const call of streams) call.end();
      streams.clear();
    },
  };
}

type Replica = Awaited<ReturnType<typeof replica>>;

/** A node id whose agent starts at endpoint `index` of `count`. */
function nodeIdStartingAt(index: number, count: number): string {
  for (;;) {
    const id = randomUUID();
    if (spreadIndex(id, count) === index) return id;
  }
}

async function eventually<T>(check: () => T | undefined, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const report = { agentVersion: '0.1.0', uptimeSeconds: '1' };

describe('failover between control plane replicas', () => {
  const cleanup: Array<() => void> = [];
  afterEach(() => {
    for (const close of cleanup.splice(0)) close();
  });

  function agent(target: string, nodeId: string, lookup?: Lookup) {
    const client = new ControlPlaneClient(
      { target, tls: false, insecure: true },
      { nodeId, nodeSecret: 'secret' },
      { lookup },
    );
    const sets: Array<{ at: number; set: ClientSet__Output }> = [];
    const watches: ClientSetWatch[] = [];
    const watch = (backoff?: { initialMs: number; maxMs: number }) => {
      const handle = client.watchClients('0', (set) => void sets.push({ at: Date.now(), set }), {
        backoff,
      });
      watches.push(handle);
      return handle;
    };
    cleanup.push(() => {
      for (const handle of watches) handle.stop();
      client.close();
    });
    return { client, sets, watch };
  }

  it('should spread agents by node id and move a dead replica’s agents to the other within seconds', async () => {
    const a = await replica('a');
    const b = await replica('b');
    cleanup.push(a.kill, b.kill);
    const list = `${a.target},${b.target}`;
    const onA = agent(list, nodeIdStartingAt(0, 2));
    const onB = agent(list, nodeIdStartingAt(1, 2));
    for (const node of [onA, onB]) {
      node.watch();
      await node.client.report(report);
    }
    expect(onA.client.lastAnswered?.target).toBe(a.target);
    expect(onB.client.lastAnswered?.target).toBe(b.target);
    await eventually(() => (onA.sets.length && onB.sets.length ? true : undefined));
    expect(onA.sets[0]!.set.clientUuids).toEqual(['a']);
    expect(onB.sets[0]!.set.clientUuids).toEqual(['b']);

    const killedAt = Date.now();
    a.kill();
    // The client stream notices at once and follows the rotation to b; so does the next report.
    const moved = await eventually(() => onA.sets.find((s) => s.set.clientUuids[0] === 'b'));
    await onA.client.report(report);
    expect(onA.client.lastAnswered?.target).toBe(b.target);
    expect(moved.at - killedAt).toBeLessThan(3_000);
    // The agent on b never moved.
    await onB.client.report(report);
    expect(onB.client.lastAnswered?.target).toBe(b.target);
    expect(b.seen.watches).toBe(2);
  });

  it('should move on when a replica ends the idle report stream, before the next report', async () => {
    const a = await replica('a');
    const b = await replica('b');
    cleanup.push(a.kill, b.kill);
    const node = agent(`${a.target},${b.target}`, nodeIdStartingAt(0, 2));
    await node.client.report(report);
    const moves: string[] = [];
    node.client.rotation.onMove((_from, to) => moves.push(to.target));
    a.endReportStreams();
    await eventually(() => (moves.length ? true : undefined));
    expect(moves).toEqual([b.target]);
    await node.client.report(report);
    expect(node.client.lastAnswered?.target).toBe(b.target);
  });

  it('should reconnect a client stream waiting out a long backoff as soon as a report is answered', async () => {
    // The only replica is down; the stream's next try is 30 to 60 s away.
    const first = await replica('a');
    const port = first.port;
    first.kill();
    const node = agent(`127.0.0.1:${port}`, randomUUID());
    const retries: number[] = [];
    const handle = node.client.watchClients(
      '0',
      (set) => void node.sets.push({ at: Date.now(), set }),
      {
        backoff: { initialMs: 60_000, maxMs: 60_000 },
        onError: (_error, retryInMs) => retries.push(retryInMs),
      },
    );
    cleanup.push(() => handle.stop());
    await eventually(() => (retries.length ? true : undefined));
    expect(retries[0]).toBeGreaterThanOrEqual(30_000);

    // The replica comes back; the reporter's next report gets an answer.
    const back = await replica('back', '127.0.0.1', port);
    cleanup.push(back.kill);
    // As the reporter does: retry until a report is answered (grpc-js reconnects on its own).
    for (;;) {
      const answered = await node.client.report(report).then(
        () => true,
        () => false,
      );
      if (answered) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const answeredAt = Date.now();
    const received = await eventually(() => node.sets[0]);
    expect(received.set.clientUuids).toEqual(['back']);
    expect(received.at - answeredAt).toBeLessThan(2_000);
  });

  it('should use every address of a name as an endpoint and fail over between them', async () => {
    const a = await replica('a', '127.0.0.2');
    let b: Replica;
    try {
      b = await replica('b', '127.0.0.3', a.port);
    } catch {
      a.kill();
      return; // the port is taken on 127.0.0.3 by someone else: nothing to learn this run
    }
    cleanup.push(a.kill, b.kill);
    const asked: string[] = [];
    const lookup: Lookup = (host) => {
      asked.push(host);
      return Promise.resolve(host === 'cp.scn.test' ? ['127.0.0.3', '127.0.0.2'] : []);
    };
    const node = agent(`cp.scn.test:${a.port}`, nodeIdStartingAt(0, 2), lookup);
    node.watch();
    await node.client.report(report);
    expect(node.client.rotation.size).toBe(2);
    expect(node.client.lastAnswered?.target).toBe(a.target);
    a.kill();
    await eventually(() => node.sets.find((s) => s.set.clientUuids[0] === 'b'));
    await node.client.report(report);
    expect(node.client.lastAnswered?.target).toBe(b.target);
    expect(asked).toEqual(['cp.scn.test']);
  });
});

/** Timers a test fires by hand, remembering each delay asked for. */
function manualTimers() {
  const pending = new Map<number, { callback: () => void; ms: number }>();
  let next = 0;
  return {
    delays: [] as number[],
    pending,
    setTimeout(callback: () => void, ms: number) {
      next += 1;
      pending.set(next, { callback, ms });
      this.delays.push(ms);
      return next;
    },
    clearTimeout(handle: unknown) {
      pending.delete(handle as number);
    },
    /** Runs every pending timer once. */
    fireAll() {
      const due = [...pending.entries()];
      pending.clear();
      for (const [, timer] of due) timer.callback();
    },
  };
}

describe('return to the preferred control plane replica', () => {
  const cleanup: Array<() => void> = [];
  afterEach(() => {
    for (const close of cleanup.splice(0)) close();
  });

  it('should move back to its own replica once it answers again, streams re-opened there and no report lost or sent twice', async () => {
    const a = await replica('a');
    const b = await replica('b');
    cleanup.push(a.kill, b.kill);
    const client = new ControlPlaneClient(
      { target: `${a.target},${b.target}`, tls: false, insecure: true },
      { nodeId: nodeIdStartingAt(0, 2), nodeSecret: 'secret' },
    );
    const sets: ClientSet__Output[] = [];
    const watch = client.watchClients('0', (set) => void sets.push(set), {
      backoff: { initialMs: 50, maxMs: 100 },
    });
    const timers = manualTimers();
    // Short while the replica is down (a check waits out the channel's reconnects until then).
    let checkDeadlineMs = 1_000;
    const back = new PreferredEndpointReturn(client.rotation, {
      check: (endpoint) => client.answers(endpoint, checkDeadlineMs),
      intervalMs: 30_000,
      timers,
      random: () => 0.5,
    });
    const moves: string[] = [];
    client.rotation.onMove((from, to, reason) => moves.push(`${reason} ${from.port}>${to.port}`));
    cleanup.push(() => {
      back.stop();
      watch.stop();
      client.close();
    });
    back.start();
    await client.report(report);
    expect(client.lastAnswered?.target).toBe(a.target);
    // On its own replica, nothing to check.
    expect(back.scheduled).toBe(false);

    a.kill();
    await eventually(() => sets.find((s) => s.clientUuids[0] === 'b'));
    expect(client.rotation.peek().target).toBe(b.target);
    // Away from it: one check due, 30 to 60 s away (here half way).
    expect(back.scheduled).toBe(true);
    expect(timers.delays).toEqual([45_000]);
    // The replica is still down: the check fails, the agent stays, the next check is due.
    timers.fireAll();
    await eventually(() => (timers.pending.size === 1 ? true : undefined));
    expect(client.rotation.peek().target).toBe(b.target);
    expect(await client.answers(client.rotation.preferred()!, 500)).toBe(false);

    // The replica returns on its port; reports keep going, one after the other, meanwhile.
    const a2 = await replica('a2', '127.0.0.1', a.port);
    cleanup.push(a2.kill);
    const before = { b: b.seen.reports };
    let sent = 0;
    let failed = 0;
    let reporting = true;
    const loop = (async () => {
      while (reporting) {
        await client.report(report).then(
          () => (sent += 1),
          () => (failed += 1),
        );
      }
    })();
    await eventually(() => (sent >= 5 ? true : undefined));
    checkDeadlineMs = 10_000;
    timers.fireAll();
    await eventually(() => (client.rotation.peek().target === a.target ? true : undefined), 10_000);
    const returnedAt = sent;
    await eventually(() => (sent >= returnedAt + 5 ? true : undefined));
    reporting = false;
    await loop;

    expect(moves).toEqual([`failed ${a.port}>${b.port}`, `returned ${b.port}>${a.port}`]);
    expect(back.scheduled).toBe(false);
    // Every report answered exactly once, by one replica or the other; the later ones by a.
    expect(failed).toBe(0);
    expect(a2.seen.reports + b.seen.reports - before.b).toBe(sent);
    expect(a2.seen.reports).toBeGreaterThanOrEqual(4);
    expect(client.lastAnswered?.target).toBe(a.target);
    // The client-set stream re-opened on the returned replica and left b.
    await eventually(() => sets.find((s) => s.clientUuids[0] === 'a2'));
    expect(a2.seen.watches).toBe(1);
    const watchesOnB = b.seen.watches;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(b.seen.watches).toBe(watchesOnB);
  });

  it('should spread the checks of a fleet over the interval and check again after a failed one', async () => {
    const a = await replica('a');
    const b = await replica('b');
    cleanup.push(a.kill, b.kill);
    const list = `${a.target},${b.target}`;
    const timers = manualTimers();
    const checked: string[] = [];
    const clients = Array.from({ length: 40 }, () => {
      const client = new ControlPlaneClient(
        { target: list, tls: false, insecure: true },
        { nodeId: nodeIdStartingAt(0, 2), nodeSecret: 'secret' },
      );
      const back = new PreferredEndpointReturn(client.rotation, {
        check: async (endpoint) => {
          checked.push(endpoint.target);
          return false;
        },
        intervalMs: 30_000,
        timers,
      });
      back.start();
      cleanup.push(() => {
        back.stop();
        client.close();
      });
      return { client, back };
    });
    for (const { client } of clients) {
      await client.report(report);
      expect(client.lastAnswered?.target).toBe(a.target);
    }
    expect(timers.pending.size).toBe(0);
    a.kill();
    for (const { client } of clients) await client.report(report).catch(() => undefined);
    for (const { client } of clients) expect(client.rotation.peek().target).toBe(b.target);

    // Every wait is between 30 and 60 s, and the fleet's waits are scattered over that range.
    expect(timers.delays).toHaveLength(clients.length);
    for (const ms of timers.delays) {
      expect(ms).toBeGreaterThanOrEqual(30_000);
      expect(ms).toBeLessThanOrEqual(60_000);
    }
    const quarters = new Set(
      timers.delays.map((ms) => Math.min(3, Math.floor((ms - 30_000) / 7_500))),
    );
    expect(quarters.size).toBe(4);

    // A failed check schedules the next one; stop() leaves none behind.
    timers.fireAll();
    await eventually(() => (timers.pending.size === clients.length ? true : undefined));
    expect(checked).toEqual(clients.map(() => a.target));
    for (const { back } of clients) back.stop();
    expect(timers.pending.size).toBe(0);
  });
});
