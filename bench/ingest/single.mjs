// How many agent reports one control plane stores per second: N nodes enrolled
// through the real gRPC Enroll, their reports sent through the real agent client by K worker
// processes, closed loop; the same workers against a bare @grpc/grpc-js server of the same
// contract, before and after, as the ceiling; then one real `scn-agent run` process and its own footprint.
// Each is measured for both transports of a report: the agent's long-lived ReportStream (what it
// uses) and one unary Report call per report (its fallback), each against the bare server's same
// method, so the ratios compare like with like.
//
// Environment knobs: INGEST_NODES (2000), INGEST_WORKERS (2), INGEST_WINDOW (calls in flight per
// worker, 16), INGEST_CHANNELS (per worker, 4), INGEST_SECONDS (15), INGEST_WARMUP_SECONDS (3),
// INGEST_TRANSPORTS (stream,unary; the first one is held to the targets), INGEST_AGENT_SECONDS
// (10: how long each real agent process is sampled).
import { fork, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  env,
  fmt,
  forkWorker,
  percentile,
  pool,
  postJson,
  registerNodeOperator,
  sleep,
} from '../lib/common.mjs';
import { freePort, startControlPlane } from '../lib/control-plane.mjs';
import { summariseCpuProfile } from '../lib/cpuprofile.mjs';
import { buildAgentFile } from '../../node-agent/scripts/build-agent-file.mjs';
import { cpuMs, machineCpuMs, postgresPids, rssBytes } from '../lib/proc.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const require = createRequire(import.meta.url);
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const pg = require('pg');
const { AGENT_PROTO_PATH, GRPC_LOADER_OPTIONS } = require('@scn/proto');
const { ControlPlaneClient } = require('../../node-agent/dist/src/grpc/control-plane-client.js');
const { readHardware, toProtoHardware } = require('../../node-agent/dist/src/system/hardware.js');
const { AGENT_VERSION } = require('../../node-agent/dist/src/commands/context.js');
const { AGENT_NODE_ENV, AGENT_NODE_FLAGS } = require('../../node-agent/dist/src/node-flags.js');

const NODES = env('INGEST_NODES', 2000);
const WORKERS = env('INGEST_WORKERS', 2);
const WINDOW = env('INGEST_WINDOW', 16);
const CHANNELS = env('INGEST_CHANNELS', 4);
const SECONDS = env('INGEST_SECONDS', 15);
const WARMUP_SECONDS = env('INGEST_WARMUP_SECONDS', 3);
const TRANSPORTS = (process.env.INGEST_TRANSPORTS ?? 'stream,unary').split(',');
if (TRANSPORTS.length === 0 || TRANSPORTS.some((t) => t !== 'stream' && t !== 'unary')) {
  throw new Error('INGEST_TRANSPORTS: a comma-separated list of stream and unary');
}
const TRANSPORT_NAME = { stream: 'ReportStream', unary: 'unary Report' };
const AGENT_SAMPLE_MS = env('INGEST_AGENT_SECONDS', 10) * 1000;
const AGENT_INTERVAL_MS = 2_000;

const TARGET = { reportsPerSecond: 5000, p99Ms: 50, echoRatio: 0.5, agentRssMb: 60 };

/**
 * One closed-loop phase against `target`, every worker at once. `atWindowStart` runs when the
 * measured window opens (after the warm-up). CPU of the `watch` processes is taken over the window.
 */
async function phase(
  workers,
  target,
  transport,
  { watch = {}, atWindowStart = async () => {} } = {},
) {
  const startAt = Date.now() + 1500; // channels connect and bodies are built before this
  const windowStart = startAt + WARMUP_SECONDS * 1000;
  const cpuAt = {};
  const opened = (async () => {
    await sleep(windowStart - Date.now());
    for (const [name, pids] of Object.entries(watch)) {
      cpuAt[name] = pids().reduce((sum, pid) => sum + cpuMs(pid), 0);
    }
    cpuAt.machine = machineCpuMs();
    cpuAt.wall = Date.now();
    return atWindowStart();
  })();
  const results = await Promise.all(
    workers.map((w) =>
      w.call({
        type: 'run',
        target,
        transport,
        channels: CHANNELS,
        window: WINDOW,
        startAt,
        warmupMs: WARMUP_SECONDS * 1000,
        durationMs: SECONDS * 1000,
      }),
    ),
  );
  const windowSeconds = (Date.now() - cpuAt.wall) / 1000;
  const cpu = {};
  for (const [name, pids] of Object.entries(watch)) {
    cpu[name] = (pids().reduce((sum, pid) => sum + cpuMs(pid), 0) - cpuAt[name]) / windowSeconds;
  }
  const machine = machineCpuMs();
  cpu.machine = (machine.busy - cpuAt.machine.busy) / windowSeconds;
  cpu.steal = (machine.steal - cpuAt.machine.steal) / windowSeconds;
  cpu.machineCapacity = (machine.total - cpuAt.machine.total) / windowSeconds;
  cpu.loadGenerator = results.reduce((s, r) => s + r.cpuMs, 0) / SECONDS;
  // Whatever else ran on the machine meanwhile (other processes not started by this benchmark).
  cpu.others = Math.max(
    0,
    cpu.machine - cpu.loadGenerator - Object.keys(watch).reduce((sum, name) => sum + cpu[name], 0),
  );
  const latencies = results.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const completed = results.reduce((s, r) => s + r.inWindow, 0);
  return {
    atWindowStart: await opened,
    rate: completed / SECONDS,
    completed,
    failures: results.reduce((s, r) => s + r.failures, 0),
    errors: results.flatMap((r) => r.errors),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1],
    cpu,
    windowOpenedAt: cpuAt.wall,
    finishedAt: Math.max(...results.map((r) => r.finishedAt)),
  };
}

function startEchoServer() {
  const child = fork(join(here, 'echo-server.mjs'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('message', ({ port }) =>
      resolve({
        pid: child.pid,
        target: `127.0.0.1:${port}`,
        stop: () =>
          new Promise((r) => {
            child.once('exit', r);
            child.send('exit');
          }),
      }),
    );
  });
}

/**
 * A pass-through gRPC proxy in front of the control plane that only shortens the report interval
 * the agent is told (60 s) to `intervalMs`, so a short run sees several report cycles. It counts
 * the reports it forwards, with their times.
 */
async function startIntervalShim(upstream, intervalMs) {
  const proto = grpc.loadPackageDefinition(
    protoLoader.loadSync(AGENT_PROTO_PATH, GRPC_LOADER_OPTIONS),
  );
  const AgentService = proto.scn.agent.v1.AgentService;
  const client = new AgentService(upstream, grpc.credentials.createInsecure());
  const reports = [];
  const server = new grpc.Server();
  server.addService(AgentService.service, {
    Enroll: (call, callback) => client.Enroll(call.request, callback),
    Report: (call, callback) =>
      client.Report(call.request, call.metadata, (error, response) => {
        if (error) return callback(error);
        reports.push(Date.now());
        callback(null, { ...response, nextReportIntervalMs: intervalMs });
      }),
    ReportStream: (call) => {
      const upstreamCall = client.ReportStream(call.metadata);
      call.on('data', (request) => upstreamCall.write(request));
      call.on('end', () => upstreamCall.end());
      call.on('cancelled', () => upstreamCall.cancel());
      upstreamCall.on('data', (response) => {
        reports.push(Date.now());
        call.write({ ...response, nextReportIntervalMs: intervalMs });
      });
      upstreamCall.on('error', (error) => call.emit('error', error));
      upstreamCall.on('end', () => call.end());
    },
    WatchClients: (call) => {
      const upstreamCall = client.WatchClients(call.request, call.metadata);
      upstreamCall.on('data', (set) => call.write(set));
      upstreamCall.on('error', (error) => call.emit('error', error));
      upstreamCall.on('end', () => call.end());
      call.on('cancelled', () => upstreamCall.cancel());
    },
  });
  const port = await new Promise((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) =>
      e ? reject(e) : resolve(p),
    ),
  );
  return {
    target: `127.0.0.1:${port}`,
    reports,
    stop: () => {
      server.forceShutdown();
      client.close();
    },
  };
}

function runAgentCli(entry, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`scn-agent ${args[0]} exited ${code}: ${output}`)),
    );
  });
}

/**
 * The agent as the installer ships it: one esbuild file (scripts/bundle.mjs's options) beside the
 * .proto tree, built into a temporary folder. null when esbuild is not installed.
 */
async function bundleAgent() {
  let esbuild;
  try {
    esbuild = createRequire(join(root, 'node-agent', 'package.json'))('esbuild');
  } catch {
    return null;
  }
  const dir = mkdtempSync(join(tmpdir(), 'scn-bench-bundle-'));
  const outfile = join(dir, 'bin', 'scn-agent.js');
  await buildAgentFile(esbuild, outfile);
  cpSync(join(root, 'proto', 'scn'), join(dir, 'scn'), { recursive: true });
  return outfile;
}

/** One real agent daemon (no core) reporting every AGENT_INTERVAL_MS through the shim. */
async function measureAgent(grpcTarget, newToken, entry) {
  const shim = await startIntervalShim(grpcTarget, AGENT_INTERVAL_MS);
  const dir = mkdtempSync(join(tmpdir(), 'scn-bench-agent-'));
  const config = join(dir, 'config.json');
  try {
    await runAgentCli(entry, [
      'enroll',
      '--server',
      shim.target,
      '--token',
      await newToken(),
      '--tier',
      'tier1',
      '--public-host',
      '127.0.0.1',
      '--public-port',
      '20443',
      '--core-binary',
      join(dir, 'no-core'),
      '--core-work-dir',
      join(dir, 'core'),
      '--config',
      config,
    ]);
    const parsed = JSON.parse(readFileSync(config, 'utf8'));
    writeFileSync(config, JSON.stringify({ ...parsed, reportIntervalMs: AGENT_INTERVAL_MS }), {
      mode: 0o600,
    });
    // As installed: the launcher's flags (node-agent/src/node-flags.ts).
    const agent = spawn(
      process.execPath,
      [...AGENT_NODE_FLAGS, entry, 'run', '--config', config, '--no-core'],
      { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...AGENT_NODE_ENV } },
    );
    let stderr = '';
    agent.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise((r) => agent.once('exit', r));
    try {
      // Start measuring after the first report: start-up (module loading) is not steady state.
      const deadline = Date.now() + 15_000;
      while (shim.reports.length === 0) {
        if (agent.exitCode !== null) throw new Error(`agent exited: ${stderr}`);
        if (Date.now() > deadline) throw new Error(`agent sent no report: ${stderr}`);
        await sleep(50);
      }
      await sleep(300);
      const first = shim.reports.length;
      const cpu0 = cpuMs(agent.pid, { children: true });
      const t0 = Date.now();
      const rss = [];
      while (Date.now() - t0 < AGENT_SAMPLE_MS) {
        rss.push(rssBytes(agent.pid));
        await sleep(100);
      }
      const cpu = cpuMs(agent.pid, { children: true }) - cpu0;
      const seconds = (Date.now() - t0) / 1000;
      const reports = shim.reports.length - first;
      const persisted = JSON.parse(readFileSync(config, 'utf8')).lastReport;
      rss.sort((a, b) => a - b);
      return {
        rssMb: rss[rss.length - 1] / 2 ** 20,
        rssMedianMb: percentile(rss, 50) / 2 ** 20,
        cpuMs: cpu,
        seconds,
        reports,
        cpuMsPerCycle: reports > 0 ? cpu / reports : NaN,
        lastReport: persisted,
      };
    } finally {
      agent.kill('SIGTERM');
      await exited;
    }
  } finally {
    shim.stop();
  }
}

// ---------------------------------------------------------------------------------------------

const grpcPort = await freePort();
const pgPort = await freePort();
// INGEST_PROFILE=1: a V8 CPU profile of the control plane, summarised over the measured window.
const profileDir = process.env.INGEST_PROFILE
  ? mkdtempSync(join(tmpdir(), 'scn-bench-prof-'))
  : null;
// Each node here reports hundreds of times a minute to stand in for many real nodes (one report a
// minute each): its allowance (20 at once, then one per 6 s) is raised so that only the
// throughput is measured.
const cp = await startControlPlane(
  { GRPC_PORT: String(grpcPort), EMBEDDED_PG_PORT: String(pgPort), AGENT_REPORT_BURST: '1000000' },
  { nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [] },
);
const grpcTarget = `127.0.0.1:${grpcPort}`;
const db = new pg.Pool({
  connectionString:
    process.env.DATABASE_URL ?? `postgres://postgres:postgres@127.0.0.1:${pgPort}/scn`,
  max: 2,
});
// An idle client's error (its server going away) is not the run's failure: say it, and let the
// next query fail if it matters. Unhandled, it ends the process with a dump of the client.
db.on('error', (error) => console.error(`database client: ${error.message}`));
const workers = [];
let echo = null;
let profileWindow = null;
try {
  const session = await registerNodeOperator(cp, 'ingest');
  const newToken = async () =>
    (
      await postJson(
        cp.base,
        '/api/nodes/enrollment-tokens',
        { tier: 'tier1' },
        { authorization: `Bearer ${session}` },
      )
    ).token;

  // 1. Enrollment: one token per node (REST, as the setup wizard), then the real gRPC Enroll.
  const hardware = toProtoHardware(await readHardware());
  let started = performance.now();
  const tokens = await pool(NODES, 8, () => newToken());
  const tokenSeconds = (performance.now() - started) / 1000;
  const enroller = new ControlPlaneClient({ target: grpcTarget, tls: false });
  started = performance.now();
  const nodes = await pool(NODES, 8, async (i) => {
    const r = await enroller.enroll({
      enrollmentToken: tokens[i],
      tier: 'TIER_1',
      agentVersion: AGENT_VERSION,
      hardware,
    });
    return { nodeId: r.nodeId, nodeSecret: r.nodeSecret };
  });
  const enrollSeconds = (performance.now() - started) / 1000;
  enroller.close();
  console.log(
    `enrolled ${fmt(NODES)} nodes: tokens ${tokenSeconds.toFixed(1)} s (${fmt(NODES / tokenSeconds)}/s), ` +
      `gRPC Enroll ${enrollSeconds.toFixed(1)} s (${fmt(NODES / enrollSeconds)}/s), concurrency 8`,
  );

  for (let w = 0; w < WORKERS; w += 1) workers.push(forkWorker(join(here, 'worker.mjs'), 'worker'));
  await Promise.all(
    workers.map((w, i) =>
      w.call({ type: 'init', hardware, nodes: nodes.filter((_, n) => n % WORKERS === i) }),
    ),
  );

  // 2. The ceiling: a bare grpc-js server of the same contract, same workers, same window, for
  // each transport.
  const echoPhases = async () => {
    echo = await startEchoServer();
    const results = {};
    for (const transport of TRANSPORTS) {
      results[transport] = await phase(workers, echo.target, transport, {
        watch: { server: () => [echo.pid] },
      });
    }
    await echo.stop();
    echo = null;
    return results;
  };
  const bare = await echoPhases();

  // 3. The control plane, counted by what PostgreSQL holds: uptime_seconds carries each node's
  // report sequence number, so sum(uptime_seconds) moves by one per stored report.
  const stored = async () =>
    Number(
      (
        await db.query(
          `SELECT coalesce(sum(uptime_seconds), 0)::bigint AS n FROM servers WHERE source = 'agent'`,
        )
      ).rows[0].n,
    );
  const cpPhases = {};
  for (const transport of TRANSPORTS) {
    const result = await phase(workers, grpcTarget, transport, {
      watch: {
        server: () => [cp.pid],
        postgres: () => postgresPids(cp.pid),
      },
      atWindowStart: () => stored(),
    });
    const after = await stored();
    const storedInWindow = after - result.atWindowStart;
    const storedSeconds = (result.finishedAt - result.windowOpenedAt) / 1000;
    const staleRows = Number(
      (
        await db.query(
          `SELECT count(*)::int AS n FROM servers WHERE source = 'agent' AND last_report_at < to_timestamp($1 / 1000.0)`,
          [result.windowOpenedAt],
        )
      ).rows[0].n,
    );
    cpPhases[transport] = {
      ...result,
      storedInWindow,
      storedSeconds,
      persistedRate: storedInWindow / storedSeconds,
      staleRows,
    };
  }
  const held = TRANSPORTS[0];
  profileWindow = {
    from: cpPhases[held].windowOpenedAt,
    to: cpPhases[held].windowOpenedAt + SECONDS * 1000,
  };

  // The ceiling again after the control plane: the ratios use the mean of the two echo phases,
  // so a machine that speeds up or slows down during the run does not tilt them.
  const bareAfter = await echoPhases();
  const bareRate = (transport) => (bare[transport].rate + bareAfter[transport].rate) / 2;

  // 4. One real agent process: as built (dist/) and as the installer ships it (one bundled file).
  const agents = [
    [
      'dist/src/index.js',
      await measureAgent(grpcTarget, newToken, join(root, 'node-agent', 'dist', 'src', 'index.js')),
    ],
  ];
  const bundled = await bundleAgent();
  if (bundled) agents.push(['installer bundle', await measureAgent(grpcTarget, newToken, bundled)]);

  // ---- Report
  const ms = (v) => fmt(v, 1).padStart(8);
  const line = (name, r, extra) =>
    `${name.padEnd(34)}${fmt(r.completed).padStart(9)}${fmt(r.failures).padStart(9)}${fmt(r.rate).padStart(9)}${ms(r.p50)}${ms(r.p99)}${ms(r.max)}   ${extra}`;
  console.log(
    `\n${WORKERS} worker processes x ${WINDOW} calls in flight x ${CHANNELS} channels, ${NODES} nodes, ` +
      `${WARMUP_SECONDS} s warm-up + ${SECONDS} s measured, sharing ${cpus().length} cores`,
  );
  console.log(
    `${'target'.padEnd(34)}${'calls'.padStart(9)}${'failed'.padStart(9)}${'calls/s'.padStart(9)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'max ms'.padStart(8)}   CPU cores (server / postgres / load gen / others / steal, of capacity)`,
  );
  const cores = (v) => (v === undefined ? '-' : (v / 1000).toFixed(2));
  // The bare echo has no PostgreSQL: cores() prints '-' for it.
  const phaseLine = (name, r) =>
    console.log(
      line(
        name,
        r,
        `${cores(r.cpu.server)} / ${cores(r.cpu.postgres)} / ${cores(r.cpu.loadGenerator)} / ${cores(r.cpu.others)} / ${cores(r.cpu.steal)}, of ${cores(r.cpu.machineCapacity)}`,
      ),
    );
  for (const t of TRANSPORTS) phaseLine(`bare grpc-js echo, ${TRANSPORT_NAME[t]}`, bare[t]);
  for (const t of TRANSPORTS) phaseLine(`control plane, ${TRANSPORT_NAME[t]}`, cpPhases[t]);
  for (const t of TRANSPORTS) phaseLine(`bare echo again, ${TRANSPORT_NAME[t]}`, bareAfter[t]);
  for (const t of TRANSPORTS) {
    const r = cpPhases[t];
    console.log(
      `${TRANSPORT_NAME[t]}: persisted by PostgreSQL ${fmt(r.storedInWindow)} reports in ${r.storedSeconds.toFixed(1)} s = ${fmt(r.persistedRate)} reports/s ` +
        `(sum of per-node sequence numbers in servers.uptime_seconds; acknowledged in window: ${fmt(r.completed)}; ` +
        `nodes not reported since the window opened: ${r.staleRows}); ` +
        `ratio to the bare echo of the same method (mean of its two phases, ${fmt(bareRate(t))} calls/s): ${(r.rate / bareRate(t)).toFixed(2)}; ` +
        `CPU per report: control plane ${(r.cpu.server / r.rate).toFixed(3)} ms, PostgreSQL ${(r.cpu.postgres / r.rate).toFixed(3)} ms, ` +
        `load generator ${(r.cpu.loadGenerator / r.rate).toFixed(3)} ms (bare server ${(bare[t].cpu.server / bare[t].rate).toFixed(3)} ms, ` +
        `its load generator ${(bare[t].cpu.loadGenerator / bare[t].rate).toFixed(3)} ms)`,
    );
  }
  for (const [name, a] of agents) {
    console.log(
      `agent ${name} (scn-agent run --no-core, reporting every ${AGENT_INTERVAL_MS / 1000} s through an interval-shortening proxy): ` +
        `RSS max ${a.rssMb.toFixed(1)} MB (median ${a.rssMedianMb.toFixed(1)}), CPU incl. child processes ${fmt(a.cpuMs)} ms over ${a.seconds.toFixed(1)} s ` +
        `= ${a.cpuMsPerCycle.toFixed(1)} ms per ${AGENT_INTERVAL_MS / 1000} s report cycle (${a.reports} reports; last accepted: ${a.lastReport?.accepted})`,
    );
  }
  const phases = [...Object.values(bare), ...Object.values(cpPhases), ...Object.values(bareAfter)];
  const errors = phases.flatMap((r) => r.errors);
  if (errors.length > 0) console.log('errors:', JSON.stringify(errors));

  const verdict = (ok, text) => console.log(`${ok ? 'MET    ' : 'MISSED '} ${text}`);
  const h = cpPhases[held];
  const ratio = h.rate / bareRate(held);
  verdict(
    h.persistedRate >= TARGET.reportsPerSecond,
    `persisted reports/s ${fmt(h.persistedRate)} over ${TRANSPORT_NAME[held]} (target >= ${fmt(TARGET.reportsPerSecond)})`,
  );
  verdict(
    h.p99 < TARGET.p99Ms,
    `p99 ${h.p99.toFixed(1)} ms at ${WORKERS * WINDOW} in flight (target < ${TARGET.p99Ms} ms)`,
  );
  verdict(
    ratio >= TARGET.echoRatio,
    `ratio to the bare echo of ${TRANSPORT_NAME[held]} ${ratio.toFixed(2)} (target >= ${TARGET.echoRatio})`,
  );
  for (const [name, a] of agents) {
    verdict(
      a.rssMb < TARGET.agentRssMb,
      `agent RSS (${name}) ${a.rssMb.toFixed(1)} MB (target < ${TARGET.agentRssMb} MB)`,
    );
  }

  if (phases.some((r) => r.failures > 0)) throw new Error('some calls failed');
  for (const t of TRANSPORTS) {
    const r = cpPhases[t];
    // The window's edges cut through the calls in flight (each worker keeps WINDOW on each of
    // its CHANNELS): at most twice those, plus 2%, may fall on either side.
    if (
      Math.abs(r.storedInWindow - r.completed) >
      WORKERS * WINDOW * CHANNELS * 2 + r.completed * 0.02
    ) {
      throw new Error(
        `${TRANSPORT_NAME[t]}: stored ${r.storedInWindow} but acknowledged ${r.completed}: reports were lost`,
      );
    }
  }
  for (const [name, a] of agents) {
    if (!a.lastReport?.accepted || a.reports === 0)
      throw new Error(`${name}: the agent's reports were not accepted`);
  }
} finally {
  for (const w of workers) w.exit();
  if (echo) await echo.stop();
  await db.end();
  await cp.stop();
}
if (profileDir && profileWindow) {
  const endedAt = Date.now();
  const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no CPU profile in ${profileDir}`);
  const summary = summariseCpuProfile(join(profileDir, file), {
    only: { ...profileWindow, endedAt },
  });
  console.log(
    `\ncontrol plane CPU profile over the measured window (${join(profileDir, file)}), busy ${(summary.busyShare * 100).toFixed(0)}% of samples; self time by area:`,
  );
  for (const a of summary.areas)
    console.log(`  ${(a.share * 100).toFixed(1).padStart(5)}%  ${a.name}`);
  console.log('hottest functions (self time):');
  for (const f of summary.functions)
    console.log(`  ${(f.share * 100).toFixed(1).padStart(5)}%  ${f.name}`);
}
