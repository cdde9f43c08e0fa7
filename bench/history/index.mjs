// The reliability history at network size: what the minute sweep's history pass
// costs for N servers (HISTORY_SERVERS, 100,000), how many bytes a month of day rows takes, and
// how long the rewards engine's period aggregate (periodFacts) takes over that month.
//
// Runs the built control plane's own classes (control-plane/dist) on an embedded PostgreSQL of its
// own (or DATABASE_URL's server, in a fresh database), without the control plane process, so no
// background sweep runs meanwhile. Servers are generated in PostgreSQL (generate_series).
//   - sweep: `ReliabilityHistoryService.writeUntil` on every server, twice: the first run creates
//     every cursor, the second is a minute later (the steady state, every minute).
//   - size: a month (30 days) of day rows for every server, inserted in one statement with varied
//     figures, then VACUUM ANALYZE; pg_total_relation_size (table, TOAST, primary key, BRIN), with
//     the cursors table; scaled to 100,000 servers.
//   - churn: the sweep updates every cursor (the day's figures pending there) every minute; the
//     tables' size after HISTORY_CHURN_MINUTES (60) runs against the same rows compacted.
//   - periodFacts: the month's aggregate per server, the rewards engine's read.
import { chmodSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../lib/control-plane.mjs';
import { cpuMs, postgresPids } from '../lib/proc.mjs';

const require = createRequire(import.meta.url);
const pg = require('pg');
const { DataSource } = require('typeorm');
const dist = (path) => require(`../../control-plane/dist/${path}`);
const { startEmbeddedPostgres } = dist('database/embedded-postgres.js');
const { runMigrations } = dist('database/migrate.js');
const { dataSourceOptions } = dist('database/data-source.js');
const { ReliabilityHistoryRepository } = dist(
  'reliability-history/reliability-history.repository.js',
);
const { ReliabilityHistoryService, HISTORY_PAGE_SIZE } = dist(
  'reliability-history/reliability-history.service.js',
);

const SERVERS = Number(process.env.HISTORY_SERVERS ?? 100_000);
const MONTH_DAYS = 30;
const CHURN_MINUTES = Number(process.env.HISTORY_CHURN_MINUTES ?? 60);
const fmt = (n, digits = 0) =>
  Number(n).toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
const mb = (bytes) => `${fmt(bytes / 1024 ** 2, 1)} MiB`;

let embedded = null;
let adminUrl = process.env.DATABASE_URL;
if (!adminUrl) {
  const dir = mkdtempSync(join(tmpdir(), 'scn-bench-history-'));
  chmodSync(dir, 0o755);
  embedded = await startEmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port: await freePort(),
    database: 'postgres',
  });
  adminUrl = embedded.url;
}
const dbName = `scn_bench_history_${process.pid}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${dbName}`);
const url = new URL(adminUrl);
url.pathname = `/${dbName}`;
const dbUrl = url.toString();
await runMigrations(dbUrl);
const db = new pg.Client({ connectionString: dbUrl });
await db.connect();
const dataSource = await new DataSource(dataSourceOptions(dbUrl)).initialize();

const seconds = (started) => (performance.now() - started) / 1000;
/** CPU ms so far of this process (the sweep's TypeScript) and of PostgreSQL's processes. */
const cpu = () => ({
  node: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
  postgres: postgresPids(process.pid).reduce((sum, pid) => sum + cpuMs(pid), 0),
});
const cpuSince = (before) => {
  const after = cpu();
  return `CPU ${fmt(after.node - before.node)} ms node + ${fmt(after.postgres - before.postgres)} ms PostgreSQL`;
};
try {
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);
  const [{ uuid: owner }] = (
    await db.query(
      `INSERT INTO accounts (uuid, email, user_type, password_hash, name)
       VALUES (gen_random_uuid(), 'bench.history@example.com', 'node', 'x', 'bench') RETURNING uuid`,
    )
  ).rows;
  // Created a day ago; reported within the minute (most), or 2 to 40 hours ago (1 in 20: stale).
  let started = performance.now();
  await db.query(
    `INSERT INTO servers (id, owner_uuid, name, source, tier, host, port, inbound,
                          reliability_at_report, last_report_at, created_at)
     SELECT gen_random_uuid(), $1, 'Node ' || i, 'agent', (ARRAY['tier1','tier2','tier3','tier4'])[1 + i % 4],
            'n' || i || '.example', 443, '{"security":"tls"}', 90 + i % 11,
            CASE WHEN i % 20 = 0 THEN $2::timestamptz - (2 + i % 38) * interval '1 hour'
                 ELSE $2::timestamptz - (i % 60) * interval '1 second' END,
            $2::timestamptz - interval '1 day'
     FROM generate_series(1, $3::int) AS i`,
    [owner, now, SERVERS],
  );
  await db.query('VACUUM ANALYZE servers');
  console.log(`Seeded ${fmt(SERVERS)} servers in ${seconds(started).toFixed(1)} s`);

  // The sweep's history pass: the first run (a day for each, every cursor created), then the
  // steady state a minute later.
  const service = new ReliabilityHistoryService(new ReliabilityHistoryRepository(dataSource));
  started = performance.now();
  let cpuAt = cpu();
  const first = await service.writeUntil(now);
  const firstSeconds = seconds(started);
  const firstCpu = cpuSince(cpuAt);
  const steady = [];
  for (let minute = 1; minute <= 3; minute += 1) {
    started = performance.now();
    cpuAt = cpu();
    const moved = await service.writeUntil(new Date(now.getTime() + minute * 60_000));
    steady.push({ moved, seconds: seconds(started), cpu: cpuSince(cpuAt) });
  }
  const [{ n: dayRowsAfterSweep }] = (
    await db.query('SELECT count(*)::int AS n FROM server_reliability_days')
  ).rows;
  console.log(
    `History pass (ReliabilityHistoryService.writeUntil, pages of ${fmt(HISTORY_PAGE_SIZE)}): first run ${fmt(first)} servers in ${firstSeconds.toFixed(2)} s, ${firstCpu} (cursors created, ${fmt(dayRowsAfterSweep)} finished day rows); ` +
      `then each a minute later: ${steady.map((s) => `${fmt(s.moved)} in ${s.seconds.toFixed(2)} s, ${s.cpu}`).join('; ')}`,
  );
  // Churn: every cursor updated once a minute for CHURN_MINUTES, as in production, against the
  // same rows compacted.
  for (let minute = 4; minute <= CHURN_MINUTES; minute += 1) {
    await service.writeUntil(new Date(now.getTime() + minute * 60_000));
  }
  const hot = (
    await db.query(
      `SELECT relname, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables
       WHERE relname IN ('server_history_cursors', 'server_reliability_days') ORDER BY relname`,
    )
  ).rows;
  const sizeOf = async (table) =>
    Number((await db.query(`SELECT pg_total_relation_size($1) AS b`, [table])).rows[0].b);
  const churned = {
    days: await sizeOf('server_reliability_days'),
    cursors: await sizeOf('server_history_cursors'),
  };
  await db.query('VACUUM FULL server_reliability_days');
  await db.query('VACUUM FULL server_history_cursors');
  const compact = {
    days: await sizeOf('server_reliability_days'),
    cursors: await sizeOf('server_history_cursors'),
  };
  console.log(
    `Churn: after ${CHURN_MINUTES} minute runs (the day's figures pending in the cursors): cursors ${mb(churned.cursors)} (${mb(compact.cursors)} compacted), ` +
      `day rows ${mb(churned.days)} (${mb(compact.days)} compacted); updates HOT: ` +
      hot.map((t) => `${t.relname} ${fmt(t.n_tup_hot_upd)} of ${fmt(t.n_tup_upd)}`).join(', '),
  );
  const cursorBytes = churned.cursors;

  // A month of day rows for every server, as the sweep leaves them (varied figures).
  await db.query('TRUNCATE server_reliability_days');
  started = performance.now();
  await db.query(
    `INSERT INTO server_reliability_days (server_id, day, owner_uuid, tier, observed_seconds,
       reliability_seconds, below_seconds, stale_seconds, failed_reports, malformed_reports,
       min_reliability)
     SELECT s.id, d::date, s.owner_uuid, s.tier, 86400,
            86400::bigint * (90 + (hashtext(s.id::text) + i) % 11), (i * 97) % 3600,
            CASE WHEN i % 13 = 0 THEN 7200 ELSE 0 END, i % 3, i % 7 / 6, 80 + i % 21
     FROM servers s
     CROSS JOIN generate_series(1, $2::int) AS i
     CROSS JOIN LATERAL (SELECT ($1::date - i) AS d) AS dd
     ORDER BY d, s.id`,
    [now.toISOString().slice(0, 10), MONTH_DAYS],
  );
  await db.query('VACUUM ANALYZE server_reliability_days');
  const sizes = (
    await db.query(
      `SELECT pg_total_relation_size('server_reliability_days') AS total,
              pg_relation_size('server_reliability_days') AS heap,
              pg_indexes_size('server_reliability_days') AS indexes,
              (SELECT count(*) FROM server_reliability_days) AS rows`,
    )
  ).rows[0];
  const total = Number(sizes.total);
  const perHundredThousand = (total * 100_000) / SERVERS;
  console.log(
    `A month of day rows: ${fmt(sizes.rows)} rows (${fmt(SERVERS)} servers x ${MONTH_DAYS} days) inserted in ${seconds(started).toFixed(1)} s; ` +
      `pg_total_relation_size ${mb(total)} (heap ${mb(Number(sizes.heap))}, indexes ${mb(Number(sizes.indexes))}), ` +
      `${fmt(total / Number(sizes.rows), 1)} bytes a row`,
  );
  console.log(
    `Per 100,000 nodes: ${mb(perHundredThousand)} a month (${fmt(perHundredThousand)} bytes); ` +
      `the cursors: ${mb((cursorBytes * 100_000) / SERVERS)} in all, after the churn (one row a server, not growing)`,
  );

  // The rewards engine's read over the month.
  const repository = new ReliabilityHistoryRepository(dataSource);
  const from = new Date(`${now.toISOString().slice(0, 10)}T00:00:00Z`);
  from.setUTCDate(from.getUTCDate() - MONTH_DAYS);
  const to = new Date(`${now.toISOString().slice(0, 10)}T00:00:00Z`);
  const timings = [];
  let facts = [];
  for (let run = 0; run < 3; run += 1) {
    started = performance.now();
    facts = await repository.periodFacts(from, to);
    timings.push(seconds(started));
  }
  console.log(
    `periodFacts over the month: ${fmt(facts.length)} servers in ${timings.map((s) => s.toFixed(2)).join(' / ')} s (three runs)`,
  );
} finally {
  await dataSource.destroy();
  await db.end();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
  await embedded?.stop();
}
