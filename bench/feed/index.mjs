// The subscription URL: GET /sub/<secret> requests/s and p99 for each format at
// FEED_CONCURRENCY (50) clients, closed loop, each format asked for the way its apps ask (their
// User-Agent; v2ray and the browser page by ?format= and Accept). One active subscription of
// FEED_SERVERS (5) REALITY servers. Targets: base64 at least 2,000/s with p99 under 50 ms; every
// other format within 2x of base64 (half its rate or more, p99 at most twice).
//
// Environment knobs: FEED_REQUESTS (5000 per format), FEED_CONCURRENCY (50), FEED_SERVERS (5),
// FEED_WARMUP (500 per format), FEED_FORMATS (comma-separated, default all), FEED_PROFILE=1 (a V8
// CPU profile of the control plane over base64's measured window, summarised by area and
// function), FEED_VISITOR=<IP address> (sent as X-Forwarded-For on every request, believed from
// 127.0.0.1; a fresh server_reachability estimate from its network is seeded for each of the
// subscription's servers, every third blocked, so each fetch reads and applies the reachability overlay:
// blocked servers left out, and the subscription's client network recorded).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startControlPlane } from '../lib/control-plane.mjs';
import { load } from '../lib/load.mjs';
import { summariseCpuProfile } from '../lib/cpuprofile.mjs';
import { cpuMs, postgresPids } from '../lib/proc.mjs';
import {
  describeVisitor,
  placeVisitor,
  seedReachability,
  visitorEnv,
  visitorFrom,
  visitorHeaders,
} from '../lib/visitor.mjs';

const require = createRequire(import.meta.url);
const pg = require('pg');

const env = (name, fallback) => Number(process.env[name] ?? fallback);
const REQUESTS = env('FEED_REQUESTS', 5000);
const CONCURRENCY = env('FEED_CONCURRENCY', 50);
const SERVERS = env('FEED_SERVERS', 5);
const WARMUP = env('FEED_WARMUP', 500);
const TARGET = { base64Rps: 2000, base64P99Ms: 50, factor: 2 };
const VISITOR = visitorFrom('FEED_VISITOR');

const ALL_FORMATS = [
  { format: 'base64', headers: { 'user-agent': 'v2rayNG/1.8.20' }, query: '' },
  { format: 'singbox', headers: { 'user-agent': 'SFA/1.11.4 (sing-box 1.11.4)' }, query: '' },
  { format: 'clash', headers: { 'user-agent': 'mihomo/1.19.0' }, query: '' },
  { format: 'xray', headers: { 'user-agent': 'v2rayNG/1.9.16' }, query: '' },
  { format: 'v2ray', headers: { 'user-agent': 'curl/8.5.0' }, query: '?format=v2ray' },
  {
    format: 'html',
    headers: { 'user-agent': 'Mozilla/5.0 Firefox/133.0', accept: 'text/html,*/*;q=0.8' },
    query: '',
  },
];

const chosen = process.env.FEED_FORMATS?.split(',').map((f) => f.trim());
const FORMATS = chosen ? ALL_FORMATS.filter((f) => chosen.includes(f.format)) : ALL_FORMATS;
if (!FORMATS.some((f) => f.format === 'base64'))
  throw new Error('FEED_FORMATS must include base64');
const profileDir = process.env.FEED_PROFILE ? mkdtempSync(join(tmpdir(), 'scn-feed-prof-')) : null;
let profileWindow = null;

async function insertAccount(db, userType) {
  const uuid = randomUUID();
  const token = randomBytes(32).toString('base64url');
  await db.query(
    `INSERT INTO accounts (uuid, email, user_type, password_hash, name) VALUES ($1, $2, $3, 'x', 'bench')`,
    [uuid, `${uuid}@bench.example`, userType],
  );
  await db.query(
    `INSERT INTO sessions (id, token_hash, account_uuid, expires_at) VALUES (gen_random_uuid(), $1, $2, now() + interval '1 day')`,
    [createHash('sha256').update(token).digest('hex'), uuid],
  );
  return { uuid, token };
}

async function insertServers(db, owner, count) {
  const ids = Array.from({ length: count }, () => randomUUID());
  const inbound = JSON.stringify({
    security: 'reality',
    sni: 'www.example.com',
    fp: 'chrome',
    pbk: 'Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw',
    sid: '6ba85179e30d4fc2',
    flow: 'xtls-rprx-vision',
    network: 'tcp',
  });
  await db.query(
    `INSERT INTO servers (id, owner_uuid, name, source, tier, country, host, port, inbound,
                          reliability_at_report, last_report_at, core_state)
     SELECT id, $2, 'Bench node ' || n, 'agent', 'tier2', 'DE', 'node' || n || '.bench.example',
            10000 + n::int, $3::jsonb, 100, now(), 'running'
     FROM unnest($1::uuid[]) WITH ORDINALITY AS t(id, n)`,
    [ids, owner, inbound],
  );
  return ids;
}

/**
 * Waits until the control plane uses under 5% of a core over 500 ms (at most 60 s): its start-up
 * work is over. Says how long it waited.
 */
async function settle(pid) {
  const started = Date.now();
  for (;;) {
    const before = cpuMs(pid);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const used = cpuMs(pid) - before;
    if (used < 25) return `${((Date.now() - started) / 1000).toFixed(1)} s`;
    if (Date.now() - started > 60_000) return 'no (60 s)';
  }
}

const pgPort = await freePort();
// In the launch period: the subscription is free, no deposit needed.
const cp = await startControlPlane(
  { EMBEDDED_PG_PORT: String(pgPort), LAUNCH_PERIOD_ENDS: '2099-12-31', ...visitorEnv(VISITOR) },
  { nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [] },
);
const db = new pg.Pool({
  connectionString:
    process.env.DATABASE_URL ?? `postgres://postgres:postgres@127.0.0.1:${pgPort}/scn`,
  max: 2,
});
// An idle client's error (its server going away) is not the run's failure: say it, and let the
// next query fail if it matters. Unhandled, it ends the process with a dump of the client.
db.on('error', (error) => console.error(`database client: ${error.message}`));
let failed = false;
try {
  const operator = await insertAccount(db, 'node');
  const client = await insertAccount(db, 'client');
  const serverIds = await insertServers(db, operator.uuid, SERVERS);
  const bought = await fetch(`${cp.base}/api/clients/create-subscription`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${client.token}` },
    body: JSON.stringify({ uuid: client.uuid, serverIds }),
  });
  const body = await bought.json();
  if (!bought.ok) throw new Error(`purchase: ${bought.status} ${JSON.stringify(body)}`);
  const path = new URL(body.subscriptionUrl).pathname;
  const network = VISITOR ? await placeVisitor(cp.base, VISITOR) : null;
  const seeded = network
    ? await seedReachability(db, network, 'SELECT unnest($1::uuid[]) AS id', [serverIds])
    : {};
  // Start-up work goes on in the background after /healthz answers (the GeoIP tables load for
  // several seconds of CPU): measured with the requests, it would be charged to them.
  const settled = await settle(cp.pid);
  if (process.env.CONTROL_PLANE_DIST)
    console.log(`control plane build: ${process.env.CONTROL_PLANE_DIST}`);
  console.log(`control plane idle after start-up: ${settled}`);
  console.log(
    `one active subscription of ${SERVERS} REALITY servers; ${REQUESTS} requests per format at concurrency ${CONCURRENCY}`,
  );
  if (VISITOR) console.log(describeVisitor(VISITOR, network, seeded));
  console.log('');
  console.log(
    'format     bytes   requests/s   p50 ms   p99 ms  failures  CPU ms/request: control plane + PostgreSQL = total',
  );
  const results = new Map();
  for (const { format, headers: asked, query } of FORMATS) {
    const headers = { ...asked, ...visitorHeaders(VISITOR) };
    const url = `${cp.base}${path}${query}`;
    const sample = await fetch(url, { headers });
    const bytes = (await sample.arrayBuffer()).byteLength;
    if (!sample.ok) throw new Error(`${format}: ${sample.status}`);
    await load({ url, headers, concurrency: CONCURRENCY, total: WARMUP });
    // Control plane and its PostgreSQL backends (the pool's connections exist after the warm-up).
    const pgPids = postgresPids(cp.pid);
    const pgCpu = () => pgPids.reduce((sum, pid) => sum + cpuMs(pid), 0);
    const cp0 = cpuMs(cp.pid);
    const pg0 = pgCpu();
    const from = Date.now();
    const run = await load({ url, headers, concurrency: CONCURRENCY, total: REQUESTS });
    if (format === 'base64') profileWindow = { from, to: Date.now() };
    const server = (cpuMs(cp.pid) - cp0) / run.requests;
    const database = (pgCpu() - pg0) / run.requests;
    const cpu = `${server.toFixed(2)} + ${database.toFixed(2)} = ${(server + database).toFixed(2)}`;
    results.set(format, run);
    console.log(
      `${format.padEnd(8)}${String(bytes).padStart(8)}${String(run.rps).padStart(13)}` +
        `${run.p50.padStart(9)}${run.p99.padStart(9)}${String(run.failures).padStart(10)}  ${cpu}`,
    );
    if (run.failures > 0) failed = true;
  }
  if (network) {
    // The overlay was applied: the subscription's client network recorded from the header.
    const { rows } = await db.query(
      `SELECT client_country, client_asn FROM subscriptions WHERE owner_uuid = $1`,
      [client.uuid],
    );
    const seen = rows.map((r) => `${r.client_country} AS${r.client_asn}`).join(', ');
    console.log(`subscription's recorded client network: ${seen}`);
    if (rows.some((r) => r.client_country !== network.country || r.client_asn !== network.asn))
      throw new Error(`the feed did not record the visitor's network (${seen})`);
  }
  const base = results.get('base64');
  const baseOk = base.rps >= TARGET.base64Rps && Number(base.p99) < TARGET.base64P99Ms;
  const slow = [...results]
    .filter(([format]) => format !== 'base64')
    .filter(
      ([, run]) =>
        run.rps * TARGET.factor < base.rps || Number(run.p99) > Number(base.p99) * TARGET.factor,
    )
    .map(([format]) => format);
  console.log('');
  console.log(
    `targets: base64 >= ${TARGET.base64Rps}/s and p99 < ${TARGET.base64P99Ms} ms ${baseOk ? 'met' : 'MISSED'}; ` +
      `every format within ${TARGET.factor}x of base64 ${slow.length === 0 ? 'met' : `MISSED (${slow.join(', ')})`}`,
  );
} finally {
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
    `\ncontrol plane CPU profile over base64's measured window, busy ${(summary.busyShare * 100).toFixed(0)}% of samples; self time by area:`,
  );
  for (const a of summary.areas)
    console.log(`  ${(a.share * 100).toFixed(1).padStart(5)}%  ${a.name}`);
  console.log('hottest functions (self time):');
  for (const f of summary.functions)
    console.log(`  ${(f.share * 100).toFixed(1).padStart(5)}%  ${f.name}`);
}
process.exit(failed ? 1 : 0);
