// One load-generating process of bench/ingest: holds its share of the enrolled nodes and sends
// their reports through the real agent client (ControlPlaneClient.report) over a few channels,
// closed loop with a fixed window of calls in flight. Driven by the parent over IPC.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const { AGENT_PROTO_PATH, GRPC_LOADER_OPTIONS } = require('@scn/proto');
const {
  ControlPlaneClient,
  REPORT_DEADLINE_MS,
} = require('../../node-agent/dist/src/grpc/control-plane-client.js');
const { unaryReport } = require('../../node-agent/dist/src/grpc/report-channel.js');
const {
  Reporter,
  networkMs,
  pingField,
} = require('../../node-agent/dist/src/reporter/reporter.js');
const { AGENT_VERSION } = require('../../node-agent/dist/src/commands/context.js');

const AgentService = grpc.loadPackageDefinition(
  protoLoader.loadSync(AGENT_PROTO_PATH, GRPC_LOADER_OPTIONS),
).scn.agent.v1.AgentService;

let nodes = [];
let hardware = null;
/** Per target, each node's report sequence number (see run()). */
const sequences = new Map();

/**
 * The report bodies exactly as the agent's Reporter builds them (no proxy core: ABSENT): the
 * first, with the hardware, and every later one, without it while it is unchanged.
 */
async function bodiesFor(node, index) {
  const store = {
    current: {
      publicHost: '127.0.0.1',
      publicPort: 20_000 + (index % 40_000),
      inbound: { security: 'none', network: 'tcp' },
      appliedClientSetVersion: '0',
      core: { kind: 'xray' },
      reportIntervalMs: 60_000,
    },
  };
  const reporter = new Reporter({
    client: null,
    store,
    core: null,
    agentVersion: AGENT_VERSION,
    hardware: async () => hardware,
  });
  const first = await reporter.prepare();
  first.commit(); // as when the control plane accepted it
  return { first: first.request, later: (await reporter.prepare()).request };
}

/**
 * Per-node ControlPlaneClient objects that share `channels` channels: the real class and its
 * report() wrapper (metadata, deadline, endpoint), without one TCP connection and proto load per
 * node.
 */
function clientsFor(target, channels) {
  const raws = Array.from(
    { length: channels },
    () =>
      new AgentService(target, grpc.credentials.createInsecure(), {
        'grpc.keepalive_time_ms': 60_000,
        'grpc.keepalive_timeout_ms': 20_000,
        // Its own connection per channel (grpc-js otherwise shares one per target).
        'grpc.use_local_subchannel_pool': 1,
      }),
  );
  const clients = nodes.map(
    (node, i) =>
      new ControlPlaneClient(
        { target, tls: false },
        { nodeId: node.nodeId, nodeSecret: node.nodeSecret },
        { channel: () => raws[i % channels] },
      ),
  );
  // close() ends each client's report stream; the shared channels are closed here.
  return {
    clients,
    close: () => {
      clients.forEach((client) => client.close());
      raws.forEach((raw) => raw.close());
    },
  };
}

/**
 * One closed-loop phase. `transport` 'stream': the agent's ControlPlaneClient.report(), which
 * sends on the node's long-lived ReportStream; 'unary': one Report call per report.
 */
async function run({ target, transport, channels, window, startAt, warmupMs, durationMs }) {
  const { clients, close } = clientsFor(target, channels);
  // Connect every channel before the clock starts.
  await Promise.all(
    [...new Set(clients.map((c) => c.raw))].map(
      (raw) =>
        new Promise((resolve, reject) =>
          raw.waitForReady(Date.now() + 10_000, (e) => (e ? reject(e) : resolve())),
        ),
    ),
  );
  const bodies = await Promise.all(nodes.map((node, i) => bodiesFor(node, i)));
  // uptime_seconds carries a per-node sequence number: the database's value is then the count of
  // reports it stored for that node (one call per node in flight, so writes land in order).
  // Kept per target across phases, so the count only ever grows.
  if (!sequences.has(target))
    sequences.set(
      target,
      nodes.map(() => 0),
    );
  const acked = sequences.get(target);
  // 'unary': the agent's fallback for a control plane without ReportStream, one call per report.
  const send =
    transport === 'unary'
      ? (client, body) => unaryReport(client.raw, client.metadata(), body, REPORT_DEADLINE_MS)
      : (client, body) => client.report(body);
  // As the agent does: each report carries the network round trip of the node's previous report.
  const lastPingMs = nodes.map(() => 0);
  const busy = nodes.map(() => false);
  await new Promise((r) => setTimeout(r, Math.max(0, startAt - Date.now())));
  const windowStart = startAt + warmupMs;
  const windowEnd = windowStart + durationMs;
  const latencies = [];
  let inWindow = 0;
  let failures = 0;
  const errors = new Map();
  let cursor = 0;
  const cpuBefore = { at: 0, usage: null };
  const nextNode = () => {
    for (let tries = 0; tries < nodes.length; tries += 1) {
      const i = cursor;
      cursor = (cursor + 1) % nodes.length;
      if (!busy[i]) return i;
    }
    return -1;
  };
  const lane = async () => {
    for (;;) {
      const now = Date.now();
      if (now >= windowEnd) return;
      if (cpuBefore.usage === null && now >= windowStart) {
        cpuBefore.usage = process.cpuUsage();
        cpuBefore.at = now;
      }
      const i = nextNode();
      if (i < 0) {
        await new Promise((r) => setImmediate(r));
        continue;
      }
      busy[i] = true;
      const body = {
        ...(acked[i] === 0 ? bodies[i].first : bodies[i].later),
        uptimeSeconds: String(acked[i] + 1),
        pingMs: lastPingMs[i],
      };
      const started = performance.now();
      const startedAt = Date.now();
      try {
        const response = await send(clients[i], body);
        acked[i] += 1;
        const elapsed = performance.now() - started;
        // As the agent's Reporter: the round trip less the time the control plane held it.
        lastPingMs[i] = pingField(networkMs(elapsed, response));
        if (startedAt >= windowStart) latencies.push(elapsed);
        const finishedAt = Date.now();
        if (finishedAt >= windowStart && finishedAt <= windowEnd) inWindow += 1;
      } catch (error) {
        failures += 1;
        const key = `${error.code ?? ''} ${error.details ?? error.message}`;
        errors.set(key, (errors.get(key) ?? 0) + 1);
      } finally {
        busy[i] = false;
      }
    }
  };
  await Promise.all(Array.from({ length: window }, lane));
  const cpu = process.cpuUsage(cpuBefore.usage ?? undefined);
  close();
  return {
    latencies,
    inWindow,
    failures,
    errors: [...errors].slice(0, 5),
    acked: acked.reduce((a, b) => a + b, 0),
    cpuMs: (cpu.user + cpu.system) / 1000,
    finishedAt: Date.now(),
  };
}

process.on('message', (message) => {
  const reply = (promise) =>
    promise.then(
      (result) => process.send({ id: message.id, result }),
      (error) => process.send({ id: message.id, error: String(error?.stack ?? error) }),
    );
  if (message.type === 'init') {
    nodes = message.nodes;
    hardware = message.hardware;
    reply(Promise.resolve({ nodes: nodes.length }));
  } else if (message.type === 'run') {
    reply(run(message));
  } else if (message.type === 'exit') {
    process.exit(0);
  }
});
