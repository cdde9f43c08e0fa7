// bench/ingest with INGEST_REPLICAS=2: two control planes (two dist/main.js) on one database and
// a fleet of simulated agents split between them, each reporting on its own connection every
// interval as `scn-agent run` does (fleet-worker.mjs). Prints reports/s and p99 per replica over
// a measured window, then SIGKILLs the second replica and measures how long its agents take to
// move to the first and report again (their next report fails, they take the next address and
// retry after the agent's backoff), checked in PostgreSQL. Then the survivor alone with the
// whole fleet.
//
// Knobs: INGEST_AGENTS (20000), INGEST_AGENTS_PER_CONNECTION (1: one TCP connection per agent,
// as in production), INGEST_FLEET_WORKERS (4 processes), INGEST_REPORT_INTERVAL_MS (10000; the
// agent's default is 60 s: a shorter one gives more reports per agent in a short run),
// INGEST_BACKOFF_MS (5000, the agent reporter's first backoff step), INGEST_SECONDS (30, the
// measured window), INGEST_ENROLLED (200 nodes enrolled through the real REST token and gRPC
// Enroll, the rest copied from their rows in SQL), INGEST_ENROLL_CONCURRENCY (16).
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
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
import { cpuMs, postgresPids, rssBytes } from '../lib/proc.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const pg = require('pg');
const { ControlPlaneClient } = require('../../node-agent/dist/src/grpc/control-plane-client.js');
const { readHardware, toProtoHardware } = require('../../node-agent/dist/src/system/hardware.js');
const { AGENT_VERSION } = require('../../node-agent/dist/src/commands/context.js');

const AGENTS = env('INGEST_AGENTS', 20_000);
const PER_CONNECTION = env('INGEST_AGENTS_PER_CONNECTION', 1);
const FLEET_WORKERS = env('INGEST_FLEET_WORKERS', 4);
const INTERVAL_MS = env('INGEST_REPORT_INTERVAL_MS', 10_000);
const BACKOFF_MS = env('INGEST_BACKOFF_MS', 5_000);
const SECONDS = env('INGEST_SECONDS', 30);
const ENROLL_CONCURRENCY = env('INGEST_ENROLL_CONCURRENCY', 16);
const ENROLLED = env('INGEST_ENROLLED', 200);
/** File descriptors a control plane holds besides agent connections (database, listeners). */
const FD_MARGIN = 200;

function percentiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: percentile(sorted, 100),
  };
}

/** This process's open-file limit (children inherit it): the soft one, as in effect. */
function openFileLimit() {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'));
  return Number(line?.split(/\s+/)[3] ?? Infinity);
}

function startFleetWorker() {
  const worker = forkWorker(join(here, 'fleet-worker.mjs'), 'fleet worker');
  return { ...worker, call: (type, message = {}) => worker.call({ ...message, type }) };
}

/** Waits until `pid` has gone (a SIGKILLed process is reaped by its parent, this one). */
async function gone(pid) {
  for (;;) {
    try {
      const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
      if (state === 'Z') return;
    } catch {
      return;
    }
    await sleep(20);
  }
}

// ---------------------------------------------------------------------------------------------

const connectionsPerReplica = Math.ceil(AGENTS / PER_CONNECTION);
const limit = openFileLimit();
// After the kill, the survivor holds every agent's connection.
if (connectionsPerReplica + FD_MARGIN > limit) {
  throw new Error(
    `${fmt(AGENTS)} agents at ${PER_CONNECTION} per connection need ${fmt(connectionsPerReplica)} connections on the surviving replica, ` +
      `and this process may open ${fmt(limit)} files (ulimit -n, inherited by the replicas): ` +
      `at most ${fmt((limit - FD_MARGIN) * PER_CONNECTION)} agents here, or raise INGEST_AGENTS_PER_CONNECTION`,
  );
}

const pgPort = await freePort();
const grpcPorts = [await freePort(), await freePort()];
// Each agent reports every interval; the per-node allowance is raised only so that a short
// interval (a compressed minute) is not refused.
const common = { AGENT_REPORT_BURST: '1000000' };
const first = await startControlPlane({
  ...common,
  GRPC_PORT: String(grpcPorts[0]),
  EMBEDDED_PG_PORT: String(pgPort),
});
const dbUrl = process.env.DATABASE_URL ?? `postgres://postgres:postgres@127.0.0.1:${pgPort}/scn`;
let second = null;
let secondKilled = false;
const db = new pg.Pool({ connectionString: dbUrl, max: 2 });
db.on('error', (error) => console.error(`database client: ${error.message}`));
const workers = [];
try {
  second = await startControlPlane({
    ...common,
    GRPC_PORT: String(grpcPorts[1]),
    DATABASE_URL: dbUrl,
  });
  const replicas = [first, second];
  const addresses = grpcPorts.map((port) => `127.0.0.1:${port}`);
  const names = ['replica 1', 'replica 2'];

  // 1. Enrollment through both replicas: a token per node over REST, then the real gRPC Enroll.
  const session = await registerNodeOperator(first, 'replicas');
  const hardware = toProtoHardware(await readHardware());
  const enrollers = addresses.map((target) => new ControlPlaneClient({ target, tls: false }));
  let started = performance.now();
  const enrolled = await pool(Math.min(ENROLLED, AGENTS), ENROLL_CONCURRENCY, async (i) => {
    const { token } = await postJson(
      replicas[i % 2].base,
      '/api/nodes/enrollment-tokens',
      { tier: 'tier1' },
      { authorization: `Bearer ${session}` },
    );
    const r = await enrollers[i % 2].enroll({
      enrollmentToken: token,
      tier: 'TIER_1',
      agentVersion: AGENT_VERSION,
      hardware,
    });
    return { nodeId: r.nodeId, nodeSecret: r.nodeSecret };
  });
  for (const enroller of enrollers) enroller.close();
  const enrollSeconds = (performance.now() - started) / 1000;
  // The rest: copies of the enrolled nodes' rows with their own id, secret and DNS name, in one
  // INSERT ... SELECT through the production triggers (the market listing, the counts). The
  // real path runs at 20-60 nodes/s on this machine: 20,000 would take 6-15 minutes.
  started = performance.now();
  const clones = Array.from({ length: AGENTS - enrolled.length }, () => {
    const nodeId = randomUUID();
    return { nodeId, nodeSecret: `${nodeId}.${randomBytes(32).toString('base64url')}` };
  });
  if (clones.length > 0) {
    const columns = (
      await db.query(
        `SELECT column_name FROM information_schema.columns
         WHERE table_schema = 'public' AND table_name = 'servers' AND is_generated = 'NEVER'
         ORDER BY ordinal_position`,
      )
    ).rows.map((r) => r.column_name);
    const overrides = {
      id: 'v.id',
      secret_hash: `encode(sha256(convert_to(v.secret, 'UTF8')), 'hex')`,
      host_name: `'n' || substr(md5(v.id::text), 1, 16)`,
      probe_uuid: 'gen_random_uuid()',
      name: `'Bench node ' || v.n`,
    };
    const select = columns.map((c) => overrides[c] ?? `t."${c}"`).join(', ');
    await db.query(
      `INSERT INTO servers (${columns.map((c) => `"${c}"`).join(', ')})
       SELECT ${select}
       FROM unnest($1::uuid[], $2::text[], $3::uuid[]) WITH ORDINALITY AS v(id, secret, template, n)
       JOIN servers t ON t.id = v.template`,
      [
        clones.map((c) => c.nodeId),
        clones.map((c) => c.nodeSecret),
        clones.map((_, i) => enrolled[i % enrolled.length].nodeId),
      ],
    );
  }
  const nodes = [...enrolled, ...clones].map((n, i) => ({ ...n, number: i, home: i % 2 }));
  console.log(
    `enrolled ${fmt(enrolled.length)} nodes through both replicas in ${enrollSeconds.toFixed(1)} s ` +
      `(${fmt(enrolled.length / enrollSeconds)}/s: token over REST, then gRPC Enroll; concurrency ${ENROLL_CONCURRENCY})` +
      (clones.length > 0
        ? `; ${fmt(clones.length)} more as copies of their rows in ${((performance.now() - started) / 1000).toFixed(1)} s`
        : ''),
  );

  // 2. The fleet: each agent on its own replica first, reporting every interval.
  for (let w = 0; w < FLEET_WORKERS; w += 1) workers.push(startFleetWorker());
  const settings = {
    intervalMs: INTERVAL_MS,
    backoffMs: BACKOFF_MS,
    perConnection: PER_CONNECTION,
  };
  await Promise.all(
    workers.map((w, i) =>
      w.call('start', {
        agents: nodes.filter((_, n) => n % FLEET_WORKERS === i),
        addresses,
        settings,
        hardware,
      }),
    ),
  );
  const all = async (type, message) => Promise.all(workers.map((w) => w.call(type, message)));
  started = performance.now();
  // The first reports come in one interval; on a loaded machine the ones that time out retry with
  // the backoff, which takes a few intervals more.
  const rampLimit = Date.now() + INTERVAL_MS * 5 + 60_000;
  for (;;) {
    const progress = await all('progress');
    const reported = progress.reduce((s, p) => s + p.reported, 0);
    if (reported === AGENTS) break;
    if (Date.now() > rampLimit) {
      throw new Error(
        `only ${reported} of ${AGENTS} agents reported within the ramp; errors: ${JSON.stringify(progress.flatMap((p) => p.errors))}`,
      );
    }
    await sleep(500);
  }
  console.log(
    `every agent reported once ${((performance.now() - started) / 1000).toFixed(1)} s after the fleet started ` +
      `(${FLEET_WORKERS} processes, ${fmt(connectionsPerReplica)} connections, first reports spread over the ${INTERVAL_MS / 1000} s interval)`,
  );

  // 3. The measured window, both replicas up.
  const stored = async (ids) =>
    Number(
      (
        await db.query(
          `SELECT coalesce(sum(uptime_seconds), 0)::bigint AS n FROM servers WHERE source = 'agent'${ids ? ' AND id = ANY($1::uuid[])' : ''}`,
          ids ? [ids] : [],
        )
      ).rows[0].n,
    );
  const measure = async (seconds, watched) => {
    const openedAt = Date.now();
    const storedBefore = await stored();
    const cpuBefore = watched.map((r) => cpuMs(r.pid));
    // Per process, so a PostgreSQL process that exits meanwhile is left out, not subtracted.
    const pgBefore = new Map(postgresPids(first.pid).map((pid) => [pid, cpuMs(pid)]));
    await all('openWindow', { at: openedAt });
    await sleep(seconds * 1000);
    const windows = await all('closeWindow');
    const wall = (Date.now() - openedAt) / 1000;
    const byAddress = new Map();
    for (const w of windows) {
      for (const [address, { latencies }] of Object.entries(w)) {
        if (!byAddress.has(address)) byAddress.set(address, []);
        byAddress.get(address).push(...latencies);
      }
    }
    return {
      wall,
      storedRate: ((await stored()) - storedBefore) / wall,
      cpu: watched.map((r, i) => (cpuMs(r.pid) - cpuBefore[i]) / wall / 1000),
      postgres:
        postgresPids(first.pid)
          .filter((pid) => pgBefore.has(pid))
          .reduce((s, pid) => s + cpuMs(pid) - pgBefore.get(pid), 0) /
        wall /
        1000,
      rss: watched.map((r) => rssBytes(r.pid) / 2 ** 20),
      perAddress: addresses.map((a) => ({ address: a, ...percentiles(byAddress.get(a) ?? []) })),
    };
  };
  const printWindow = (title, result, watched) => {
    console.log(`\n${title}: ${result.wall.toFixed(1)} s`);
    console.log(
      `${'replica'.padEnd(30)}${'reports'.padStart(9)}${'reports/s'.padStart(11)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'max ms'.padStart(9)}${'CPU cores'.padStart(11)}${'RSS MB'.padStart(9)}`,
    );
    result.perAddress.forEach((r, i) => {
      const watchedAt = watched.indexOf(replicas[i]);
      if (watchedAt < 0) return;
      console.log(
        `${`${names[i]} (${r.address})`.padEnd(30)}${fmt(r.count).padStart(9)}${fmt(r.count / result.wall).padStart(11)}` +
          `${fmt(r.p50, 1).padStart(9)}${fmt(r.p99, 1).padStart(9)}${fmt(r.max, 1).padStart(9)}` +
          `${result.cpu[watchedAt].toFixed(2).padStart(11)}${fmt(result.rss[watchedAt]).padStart(9)}`,
      );
    });
    console.log(
      `persisted by PostgreSQL: ${fmt(result.storedRate)} reports/s (sum of the per-node sequence numbers); PostgreSQL ${result.postgres.toFixed(2)} cores; ${cpus().length} cores in all`,
    );
  };
  const both = await measure(SECONDS, replicas);
  printWindow(
    `Both replicas, ${fmt(AGENTS)} agents reporting every ${INTERVAL_MS / 1000} s`,
    both,
    replicas,
  );

  // 4. SIGKILL the second replica: its agents' streams break; each notices at its next report.
  const killedAt = Date.now();
  process.kill(second.pid, 'SIGKILL');
  secondKilled = true;
  const strandedCounts = await all('killed', { address: addresses[1], at: killedAt });
  const strandedTotal = strandedCounts.reduce((s, c) => s + c.stranded, 0);
  await gone(second.pid);
  // Every stranded agent reports within an interval, fails, and retries after at most the
  // backoff's first step (capped at the interval); one more of each leaves room for a second try.
  const failoverLimit = killedAt + 2 * INTERVAL_MS + 2 * Math.min(BACKOFF_MS, INTERVAL_MS) + 30_000;
  let failover;
  for (;;) {
    const parts = await all('failover');
    failover = {
      back: parts.reduce((s, p) => s + p.back, 0),
      failedAfter: parts.flatMap((p) => p.failedAfter),
      backAfter: parts.flatMap((p) => p.backAfter),
      ids: parts.flatMap((p) => p.ids),
      errors: parts.flatMap((p) => p.errors),
    };
    if (failover.back === strandedTotal || Date.now() > failoverLimit) break;
    await sleep(250);
  }
  const inDatabase = Number(
    (
      await db.query(
        `SELECT count(*)::int AS n FROM servers WHERE id = ANY($1::uuid[]) AND last_report_at >= to_timestamp($2 / 1000.0)`,
        [failover.ids, killedAt],
      )
    ).rows[0].n,
  );
  const failed = percentiles(failover.failedAfter);
  const back = percentiles(failover.backAfter);
  console.log(
    `\nSIGKILL of replica 2: ${fmt(strandedTotal)} agents were on it; ${fmt(failover.back)} reported to replica 1 since ` +
      `(${fmt(inDatabase)} of them with a report stored after the kill, per PostgreSQL)`,
  );
  console.log(
    `  first failed report after the kill: p50 ${fmt(failed.p50 / 1000, 1)} s, p99 ${fmt(failed.p99 / 1000, 1)} s, last ${fmt(failed.max / 1000, 1)} s ` +
      `(an agent notices at its next report: up to one interval)`,
  );
  console.log(
    `  accepted again by replica 1: p50 ${fmt(back.p50 / 1000, 1)} s, p99 ${fmt(back.p99 / 1000, 1)} s, ` +
      `every agent ${fmt(back.max / 1000, 1)} s after the kill (interval ${INTERVAL_MS / 1000} s, backoff ${BACKOFF_MS / 1000} s of which half is jitter)`,
  );
  if (failover.errors.length > 0)
    console.log(`  failed reports by error: ${JSON.stringify(failover.errors)}`);

  // 5. The survivor alone with the whole fleet.
  const alone = await measure(Math.max(5, Math.round(SECONDS / 2)), [first]);
  printWindow(`Replica 1 alone, all ${fmt(AGENTS)} agents`, alone, [first]);

  if (failover.back !== strandedTotal || inDatabase !== strandedTotal) {
    throw new Error(
      `only ${failover.back} of ${strandedTotal} agents of the killed replica reported again (${inDatabase} stored)`,
    );
  }
  if (strandedTotal === 0) throw new Error('no agent was on the killed replica');
} finally {
  await Promise.allSettled(workers.map((w) => w.call('stop')));
  for (const w of workers) w.exit();
  await db.end();
  if (second && !secondKilled) await second.stop();
  if (second && secondKilled && !process.env.BENCH_KEEP_DATA) {
    rmSync(second.dataDir, { recursive: true, force: true });
  }
  await first.stop();
}
