// The server market at 100,000 listed servers: p50/p99 latency and requests/s of
// `GET /data/servers` for the portal's typical queries at 50 concurrent clients, and the
// PostgreSQL plan of each (EXPLAIN ANALYZE: the ordered scan must use the market indexes).
//
// Servers are generated inside PostgreSQL (one INSERT ... SELECT from generate_series), through
// the same triggers as real writes, so market_listings and market_counts are built as in
// production. Every query is measured twice: on a control plane with the page cache on (the
// default) and on a second one, on the same database, with MARKET_PAGE_CACHE_MS=0.
// MARKET_SERVERS, MARKET_REQUESTS, MARKET_CONCURRENCY and MARKET_WARMUP_REQUESTS override the
// defaults. MARKET_VISITOR=<IP address> sends it as X-Forwarded-For on every request (both
// control planes believe it from 127.0.0.1) and seeds a fresh server_reachability estimate from
// its network for every generated server, so each page carries the visitor's reachability
// overlay: one more indexed query per request, and the page serialized per request.
import { createRequire } from 'node:module';
import { freePort, startControlPlane } from '../lib/control-plane.mjs';
import { load } from '../lib/load.mjs';
import { cpuMs, machineCpuMs, postgresPids } from '../lib/proc.mjs';
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
// The statements of the build under test (CONTROL_PLANE_DIST: a before/after comparison). A
// search reaching the count's cap reads its page with a second statement (broadSearchSql);
// a build without it answers in one.
const { pageSql, broadSearchSql } = require(
  `${process.env.CONTROL_PLANE_DIST ?? '../../control-plane/dist'}/market/market-query.js`,
);
const { marketServersQuerySchema } = require('@scn/proto');

const env = (name, fallback) => Number(process.env[name] ?? fallback);
const SERVERS = env('MARKET_SERVERS', 100_000);
const REQUESTS = env('MARKET_REQUESTS', 5_000);
const CONCURRENCY = env('MARKET_CONCURRENCY', 50);
const TARGET_P99_MS = 50;
const WARMUP_REQUESTS = env('MARKET_WARMUP_REQUESTS', 5_000);
// Each query is warmed up on its own before it is measured: 500 requests, fewer when the warm-up
// above is smaller (a smoke run).
const QUERY_WARMUP = Math.min(500, WARMUP_REQUESTS);
const VISITOR = visitorFrom('MARKET_VISITOR');
const headers = visitorHeaders(VISITOR);

const QUERIES = [
  ['default (page 1)', ''],
  ['page 37', 'page=37'],
  ['search "frankfurt"', 'search=frankfurt'],
  ['country DE', 'country=DE'],
  ['sort ping asc', 'sort=ping&order=asc'],
  ['sort price', 'sort=price'],
  ['sort uptime desc, page 5', 'sort=uptime&order=desc&page=5'],
  ['search host "edge-7"', 'search=edge-7'],
  // Two characters, a country's Chinese name: no trigram (it takes three), the country index.
  ['search "德国"', `search=${encodeURIComponent('德国')}`],
];

const COUNTRIES = [
  'DE',
  'US',
  'NL',
  'FR',
  'GB',
  'JP',
  'SG',
  'CA',
  'SE',
  'FI',
  'PL',
  'ES',
  'IT',
  'CH',
  'AT',
  'BR',
  'IN',
  'AU',
  'KR',
  'TR',
];
const CITIES = [
  'Frankfurt',
  'New York',
  'Amsterdam',
  'Paris',
  'London',
  'Tokyo',
  'Singapore',
  'Toronto',
  'Stockholm',
  'Helsinki',
  'Warsaw',
  'Madrid',
  'Milan',
  'Zurich',
  'Vienna',
  'Sao Paulo',
  'Mumbai',
  'Sydney',
  'Seoul',
  'Istanbul',
];

const pgPort = await freePort();
const cp = await startControlPlane({ EMBEDDED_PG_PORT: String(pgPort), ...visitorEnv(VISITOR) });
const dbUrl = process.env.DATABASE_URL ?? `postgres://postgres:postgres@127.0.0.1:${pgPort}/scn`;
const db = new pg.Pool({ connectionString: dbUrl, max: 2 });
// An idle client's error (its server going away) is not the run's failure: say it, and let the
// next query fail if it matters. Unhandled, it ends the process with a dump of the client.
db.on('error', (error) => console.error(`database client: ${error.message}`));
let uncached = null;
try {
  uncached = await startControlPlane({
    DATABASE_URL: dbUrl,
    MARKET_PAGE_CACHE_MS: '0',
    ...visitorEnv(VISITOR),
  });
  const started = performance.now();
  const [{ uuid: owner }] = (
    await db.query(
      `INSERT INTO accounts (uuid, email, user_type, password_hash, name)
       VALUES (gen_random_uuid(), 'bench.market@example.com', 'node', 'x', 'bench') RETURNING uuid`,
    )
  ).rows;
  // Mostly healthy servers with varied ping, uptime, reliability (95-100) and place; 2% full
  // (tier1 with its 10 clients), 0.05% promoted.
  await db.query(
    `INSERT INTO servers (id, owner_uuid, name, source, tier, country, location, host, port, inbound,
                          ping_ms, uptime_seconds, reliability_at_report, last_report_at, core_state, created_at)
     SELECT gen_random_uuid(), $1, 'Node ' || i || ' ' || ($3::text[])[1 + i % 20], 'agent',
            CASE WHEN i % 50 = 0 THEN 'tier1' ELSE (ARRAY['tier2','tier3','tier4'])[1 + i % 3] END,
            ($2::text[])[1 + (i * 7) % 20], ($3::text[])[1 + (i * 7) % 20],
            'n' || i || '.edge-' || (i % 10) || '.example', 443,
            '{"security":"reality","sni":"www.example.com","fp":"chrome","pbk":"k","sid":"ab","flow":"xtls-rprx-vision","network":"tcp"}',
            CASE WHEN i % 97 = 0 THEN NULL ELSE 5 + (i * 37) % 295 END,
            ((i * 13) % 2000) * 3600 + i % 3600, 95 + i % 6, now(), 'running',
            now() - i * interval '1 second'
     FROM generate_series(1, $4::int) AS i`,
    [owner, COUNTRIES, CITIES, SERVERS],
  );
  await db.query(
    `INSERT INTO server_clients (server_id, client_uuid)
     SELECT s.id, gen_random_uuid() FROM servers s CROSS JOIN generate_series(1, 10)
     WHERE s.tier = 'tier1'`,
  );
  await db.query(
    `UPDATE market_listings SET promoted_at = now() - (random() * interval '5 days'),
       promoted_until = now() + interval '10 days', promoted = true,
       promotion_micro = 1000000000 * (1 + floor(random() * 3))::bigint
     WHERE server_id IN (SELECT server_id FROM market_listings ORDER BY server_id LIMIT $1)`,
    [Math.ceil(SERVERS / 2000)],
  );
  // The visitor's network: where the control plane places the address (null on a build without
  // reachability), and every server's estimate from there.
  const network = VISITOR ? await placeVisitor(cp.base, VISITOR) : null;
  if (VISITOR && network) await placeVisitor(uncached.base, VISITOR);
  const seededStates = network ? await seedReachability(db, network, 'SELECT id FROM servers') : {};
  await db.query('VACUUM ANALYZE servers');
  await db.query('VACUUM ANALYZE market_listings');
  const [{ listed, disabled }] = (
    await db.query(
      `SELECT count(*) FILTER (WHERE listed)::int AS listed,
              count(*) FILTER (WHERE listed AND disabled)::int AS disabled FROM market_listings`,
    )
  ).rows;
  const seeded = (performance.now() - started) / 1000;
  console.log(
    `Seeded ${SERVERS.toLocaleString('en')} servers in ${seeded.toFixed(1)} s: ${listed.toLocaleString('en')} listed, ${disabled.toLocaleString('en')} of them full (disabled)`,
  );
  if (VISITOR) console.log(describeVisitor(VISITOR, network, seededStates));

  // The plan PostgreSQL picks for each query's statements (page and count together; a broad
  // search's page in a second one): planning + execution time as EXPLAIN ANALYZE gives them
  // (its per-node timing included), and the listings read (rows returned or thrown away by the
  // scans of market_listings).
  const explain = async (query) => {
    const first = pageSql(query);
    const statements = [first];
    if (broadSearchSql && query.search) {
      const [row] = (await db.query(first.sql, first.params)).rows;
      const broad = row?.capped ? broadSearchSql(query) : null;
      if (broad) statements.push(broad);
    }
    const scans = new Set();
    let ms = 0;
    let read = 0;
    for (const { sql, params } of statements) {
      const [plan] = (await db.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params)).rows[0][
        'QUERY PLAN'
      ];
      ms += plan['Planning Time'] + plan['Execution Time'];
      const walk = (node) => {
        if (node['Relation Name'] === 'market_listings') {
          read +=
            node['Actual Rows'] * node['Actual Loops'] +
            (node['Rows Removed by Filter'] ?? 0) +
            (node['Rows Removed by Index Recheck'] ?? 0);
        }
        if (
          node['Relation Name'] === 'market_listings' ||
          node['Relation Name'] === 'market_counts'
        ) {
          scans.add(
            `${node['Node Type'].toLowerCase()}${node['Index Name'] ? ` ${node['Index Name']}` : ` ${node['Relation Name']}`}`,
          );
        }
        for (const child of node.Plans ?? []) walk(child);
      };
      walk(plan.Plan);
    }
    return { ms, read, scans: [...scans], statements: statements.length };
  };
  console.log(
    '\nPlans (EXPLAIN ANALYZE of the statements behind each query: planning + execution):',
  );
  for (const [name, qs] of QUERIES) {
    const query = marketServersQuerySchema.parse(Object.fromEntries(new URLSearchParams(qs)));
    const { ms, scans } = await explain(query);
    console.log(`  ${name.padEnd(28)} ${ms.toFixed(2).padStart(7)} ms: ${scans.join(', ')}`);
  }
  // Every text search shape in every order the market offers (best of 3: the machine is
  // shared), with the listings each read: a search's cost must not follow its matches.
  const SHAPES = [
    'frankfurt',
    'edge-7',
    'Germany',
    'آلمان',
    'Германия',
    '德国',
    'jp',
    'example',
    'de',
    'n12345.edge',
    'zzzz',
  ];
  const ORDERS = [
    '',
    'sort=reliability&order=asc',
    'sort=ping&order=asc',
    'sort=ping&order=desc',
    'sort=uptime&order=desc',
    'sort=uptime&order=asc',
    'sort=price&order=desc',
    'sort=price&order=asc',
  ];
  console.log(
    `\nText searches in every order (ms planning + execution, best of 3 / listings read):\n${'search'.padEnd(14)}${ORDERS.map((o) => (o.replace(/sort=|order=/g, '').replace('&', ' ') || 'default').padStart(18)).join('')}`,
  );
  let worstSearchMs = 0;
  for (const search of SHAPES) {
    const cells = [];
    for (const qs of ORDERS) {
      const query = marketServersQuerySchema.parse(
        Object.fromEntries(new URLSearchParams(`${qs}&search=${encodeURIComponent(search)}`)),
      );
      const runs = [await explain(query), await explain(query), await explain(query)];
      const best = runs.reduce((a, b) => (b.ms < a.ms ? b : a));
      worstSearchMs = Math.max(worstSearchMs, best.ms);
      cells.push(`${best.ms.toFixed(2)} / ${best.read}`.padStart(18));
    }
    console.log(`${JSON.stringify(search).padEnd(14)}${cells.join('')}`);
  }
  console.log(`Worst text search plan (best of 3): ${worstSearchMs.toFixed(2)} ms (target < 2 ms)`);

  // CPU time of the control plane and of PostgreSQL (its processes run below the control
  // plane) per request, and what the rest of the machine used meanwhile: the machine is shared.
  const measured = async (target, options) => {
    // Per process, so a PostgreSQL process that exits meanwhile (autovacuum) is left out
    // rather than subtracted.
    const pgCpu = () => new Map(postgresPids(cp.pid).map((pid) => [pid, cpuMs(pid)]));
    const pgBefore = pgCpu();
    const before = { server: cpuMs(target.pid), machine: machineCpuMs(), at: performance.now() };
    const loadPid = cpuMs(process.pid);
    const restBefore = cpuMs(cp.pid);
    const r = await load({ ...options, headers, total: REQUESTS, concurrency: CONCURRENCY });
    const server = cpuMs(target.pid) - before.server;
    const postgres = [...pgCpu()].reduce(
      (sum, [pid, ms]) => sum + ms - (pgBefore.get(pid) ?? 0),
      0,
    );
    const self = cpuMs(process.pid) - loadPid;
    const busy = machineCpuMs().busy - before.machine.busy;
    const wall = performance.now() - before.at;
    const rest = target === cp ? 0 : cpuMs(cp.pid) - restBefore;
    const others = Math.max(0, busy - server - postgres - self - rest) / wall;
    return {
      ...r,
      cpu: `${(server / r.requests).toFixed(2).padStart(8)}${(postgres / r.requests).toFixed(2).padStart(12)}  | ${others.toFixed(2).padStart(6)}`,
    };
  };
  const row = (name, r, note = '') =>
    console.log(
      `${name.padEnd(28)}${String(r.requests).padStart(10)}${String(r.failures).padStart(10)}${String(r.rps).padStart(10)}${r.p50.padStart(9)}${r.p99.padStart(9)}   ${r.cpu}${note}`,
    );
  const header =
    'query                         requests  failures     req/s   p50 ms   p99 ms   CPU ms/req: server  PostgreSQL  | others (cores)';
  const urlOf = (qs, target = cp) => `${target.base}/data/servers${qs ? `?${qs}` : ''}`;

  console.log(
    `\nGET /data/servers, the same page for all ${CONCURRENCY} concurrent keep-alive clients (the market's many visitors), ${REQUESTS.toLocaleString('en')} requests each after a warm-up:`,
  );
  console.log(header);
  let worstP99 = 0;
  // The server's steady state: its hot paths compiled by V8's optimizing tier before the first
  // measurement (500 requests of one query left the first row with a third more CPU per request).
  await load({ url: urlOf(''), headers, total: WARMUP_REQUESTS, concurrency: CONCURRENCY });
  for (const [name, qs] of QUERIES) {
    const url = urlOf(qs);
    const check = await (await fetch(url, { headers })).json();
    if (!check.success || check.servers.length === 0) throw new Error(`${name}: empty answer`);
    // With a placed visitor, the page must carry the overlay: a state for every server.
    const placed = check.servers.filter((s) => s.reachability && s.reachability !== 'unknown');
    if (network && placed.length !== check.servers.length)
      throw new Error(`${name}: ${placed.length} of ${check.servers.length} servers with a state`);
    await load({ url, headers, total: QUERY_WARMUP, concurrency: CONCURRENCY });
    const r = await measured(cp, { url });
    worstP99 = Math.max(worstP99, Number(r.p99));
    const overlay = network
      ? `, ${placed.filter((s) => s.reachability === 'blocked').length} of ${placed.length} blocked from ${network.country}`
      : '';
    row(
      name,
      r,
      `   (${check.total.toLocaleString('en')}${check.totalCapped ? '+' : ''} matches${overlay})`,
    );
  }

  // The same queries with the page cache off (a second control plane on the same database,
  // MARKET_PAGE_CACHE_MS=0): every request a database read.
  console.log(
    `\nThe same, page cache off (MARKET_PAGE_CACHE_MS=0: every request reads the database):`,
  );
  console.log(header);
  let worstUncachedP99 = 0;
  for (const [name, qs] of QUERIES) {
    const url = urlOf(qs, uncached);
    await load({ url, headers, total: QUERY_WARMUP, concurrency: CONCURRENCY });
    const r = await measured(uncached, { url });
    worstUncachedP99 = Math.max(worstUncachedP99, Number(r.p99));
    row(name, r);
  }

  console.log('\nReference calls:');
  console.log(header);
  for (const [name, path] of [
    ['GET /data/stats', '/data/stats'],
    ['GET /data/countries', '/data/countries'],
    ['GET /healthz', '/healthz'],
  ]) {
    row(name, await measured(cp, { url: `${cp.base}${path}` }));
  }
  console.log(
    `\nWorst p99 of /data/servers: ${worstP99.toFixed(2)} ms (target < ${TARGET_P99_MS} ms: ${worstP99 < TARGET_P99_MS ? 'met' : 'missed'}); with the page cache off: ${worstUncachedP99.toFixed(2)} ms`,
  );
} finally {
  await db.end();
  if (uncached) await uncached.stop();
  await cp.stop();
}
