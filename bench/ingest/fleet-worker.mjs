// One process of bench/ingest's two-replica run (replicas.mjs): a share of the simulated agents,
// each on its own connection (or INGEST_AGENTS_PER_CONNECTION of them on one), reporting on its
// long-lived ReportStream through the agent's own client every interval, as `scn-agent run` does.
// Each agent knows both replicas' addresses, its own first. A failed report moves it to the next
// address, and it tries again after the agent's backoff (the reporter's: 5 s, half of it jitter,
// capped at the interval), which is how the agent fails over. Driven by the parent over IPC.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const { AGENT_PROTO_PATH, GRPC_LOADER_OPTIONS } = require('@scn/proto');
const { ControlPlaneClient } = require('../../node-agent/dist/src/grpc/control-plane-client.js');
const {
  Reporter,
  networkMs,
  pingField,
} = require('../../node-agent/dist/src/reporter/reporter.js');
const { AGENT_VERSION } = require('../../node-agent/dist/src/commands/context.js');
const { backoffDelay } = require('../../node-agent/dist/src/backoff.js');

const AgentService = grpc.loadPackageDefinition(
  protoLoader.loadSync(AGENT_PROTO_PATH, GRPC_LOADER_OPTIONS),
).scn.agent.v1.AgentService;

let agents = [];
let addresses = [];
let settings = null;
let stopped = false;
/** Connections by address, then by group (`perConnection` agents share one). */
const connections = new Map();
/** Accepted reports and their latencies per address since the window opened (null: closed). */
let window = null;
let failures = 0;
const errors = new Map();
/** The replica killed and when, with the agents that were on it. */
let killed = null;

function connectionFor(agent) {
  const address = addresses[agent.at];
  if (!connections.has(address)) connections.set(address, new Map());
  const byGroup = connections.get(address);
  const group = Math.floor(agent.index / settings.perConnection);
  let raw = byGroup.get(group);
  if (!raw) {
    // The agent's channel options (ControlPlaneClient), and a connection of its own.
    raw = new AgentService(address, grpc.credentials.createInsecure(), {
      'grpc.keepalive_time_ms': 60_000,
      'grpc.keepalive_timeout_ms': 20_000,
      'grpc.use_local_subchannel_pool': 1,
      'grpc.enable_channelz': 0,
    });
    byGroup.set(group, raw);
  }
  return raw;
}

/** The agent's client on its current address: the real class and its report() (ReportChannel). */
function clientFor(agent) {
  const raw = connectionFor(agent);
  return new ControlPlaneClient(
    { target: addresses[agent.at], tls: false },
    { nodeId: agent.nodeId, nodeSecret: agent.nodeSecret },
    // The connection this agent shares (the client closes its own streams, never this).
    { channel: () => raw },
  );
}

/** Moves to the next address, as the agent does after a failure; the old connection goes. */
function failOver(agent) {
  // Its report stream (a client never closes the shared connection it was given).
  agent.client.close();
  if (settings.perConnection === 1) {
    const byGroup = connections.get(addresses[agent.at]);
    byGroup?.get(agent.index)?.close();
    byGroup?.delete(agent.index);
  }
  agent.at = (agent.at + 1) % addresses.length;
  agent.client = clientFor(agent);
}

async function report(agent) {
  if (stopped) return;
  const body = {
    ...(agent.sequence === 0 ? agent.bodies.first : agent.bodies.later),
    uptimeSeconds: String(agent.sequence + 1),
    pingMs: agent.pingMs,
  };
  const startedAt = Date.now();
  const started = performance.now();
  try {
    const response = await agent.client.report(body);
    const elapsed = performance.now() - started;
    agent.sequence += 1;
    agent.failures = 0;
    agent.pingMs = pingField(networkMs(elapsed, response));
    const address = addresses[agent.at];
    if (window && startedAt >= window.openedAt) {
      const w = window.byAddress[address] ?? (window.byAddress[address] = { latencies: [] });
      w.latencies.push(elapsed);
    }
    if (killed && agent.stranded && agent.backAt === null && address !== killed.address) {
      agent.backAt = Date.now();
    }
    schedule(agent, settings.intervalMs);
  } catch (error) {
    failures += 1;
    const key = `${error.code ?? ''} ${error.details ?? error.message}`;
    errors.set(key, (errors.get(key) ?? 0) + 1);
    if (killed && agent.stranded && agent.failedAt === null) agent.failedAt = Date.now();
    agent.failures += 1;
    failOver(agent);
    schedule(
      agent,
      backoffDelay(agent.failures - 1, {
        initialMs: settings.backoffMs,
        maxMs: Math.min(300_000, settings.intervalMs),
      }),
    );
  }
}

function schedule(agent, ms) {
  if (stopped) return;
  agent.timer = setTimeout(() => void report(agent), ms);
}

/** The report bodies as the agent's Reporter builds them (no proxy core), once per process. */
async function bodies(hardware) {
  const reporter = new Reporter({
    client: null,
    store: {
      current: {
        publicHost: '127.0.0.1',
        publicPort: 20_000,
        inbound: { security: 'none', network: 'tcp' },
        appliedClientSetVersion: '0',
        core: { kind: 'xray' },
        reportIntervalMs: 60_000,
      },
    },
    core: null,
    agentVersion: AGENT_VERSION,
    hardware: async () => hardware,
  });
  const first = await reporter.prepare();
  first.commit();
  return { first: first.request, later: (await reporter.prepare()).request };
}

async function start(message) {
  settings = message.settings;
  addresses = message.addresses;
  const shared = await bodies(message.hardware);
  agents = message.agents.map((a, i) => ({
    ...a,
    index: i,
    // Its own replica first, the other one next.
    at: a.home,
    sequence: 0,
    failures: 0,
    pingMs: 0,
    stranded: false,
    failedAt: null,
    backAt: null,
    timer: null,
    client: null,
    bodies: {
      first: { ...shared.first, publicPort: 20_000 + (a.number % 40_000) },
      later: { ...shared.later, publicPort: 20_000 + (a.number % 40_000) },
    },
  }));
  // A fleet's reports are spread over the interval, not sent in step.
  for (const agent of agents) {
    agent.client = clientFor(agent);
    schedule(agent, Math.floor(Math.random() * settings.intervalMs));
  }
  return { agents: agents.length };
}

const handlers = {
  start,
  /** How many agents have had a report accepted, and the failures so far. */
  progress: async () => ({
    reported: agents.filter((a) => a.sequence > 0).length,
    failures,
    errors: [...errors].slice(0, 5),
  }),
  openWindow: async ({ at }) => {
    window = { openedAt: at, byAddress: {} };
    return null;
  },
  /** The window's latencies per address (raw: the parent merges the processes'). */
  closeWindow: async () => {
    const result = window?.byAddress ?? {};
    window = null;
    return result;
  },
  /** Marks the agents whose connection was to the killed replica at `at`. */
  killed: async ({ address, at }) => {
    killed = { address, at };
    // From here on the failures are the failover's.
    failures = 0;
    errors.clear();
    for (const agent of agents) agent.stranded = addresses[agent.at] === address;
    return { stranded: agents.filter((a) => a.stranded).length };
  },
  failover: async () => {
    const stranded = agents.filter((a) => a.stranded);
    return {
      stranded: stranded.length,
      back: stranded.filter((a) => a.backAt !== null).length,
      // ms after the kill: the first failed report, and the first accepted one elsewhere.
      failedAfter: stranded.filter((a) => a.failedAt !== null).map((a) => a.failedAt - killed.at),
      backAfter: stranded.filter((a) => a.backAt !== null).map((a) => a.backAt - killed.at),
      ids: stranded.map((a) => a.nodeId),
      failures,
      errors: [...errors].slice(0, 5),
    };
  },
  stop: async () => {
    stopped = true;
    for (const agent of agents) {
      clearTimeout(agent.timer);
      agent.client?.close();
    }
    for (const byGroup of connections.values()) for (const raw of byGroup.values()) raw.close();
    return null;
  },
};

process.on('message', (message) => {
  if (message.type === 'exit') process.exit(0);
  const handler = handlers[message.type];
  handler(message).then(
    (result) => process.send({ id: message.id, result }),
    (error) => process.send({ id: message.id, error: String(error?.stack ?? error) }),
  );
});
