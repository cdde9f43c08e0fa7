// The monthly reward run for 100,000 nodes with a month of reliability history:
// 31 days x 100,000 rows of server_reliability_days, generated inside PostgreSQL with
// generate_series, then one RewardRunService.runPeriod from the built control plane (dist/):
// the period's facts read set-based, every statement computed and written in one transaction,
// then paid in batches (each batch's ledger movements one ledger_post call). Prints the time of
// each phase, the run's peak RSS and CPU (this process and PostgreSQL), checks the ledger and
// that a second run pays nothing. Target: under 60 s on 2 cores.
//
// REWARDS_NODES (100000), REWARDS_OPERATORS (20000) and REWARDS_BATCH (the run's default, 2000)
// override the defaults.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { freePort, startControlPlane } from '../lib/control-plane.mjs';
import { cpuMs, machineCpuMs, postgresPids, rssBytes } from '../lib/proc.mjs';

const require = createRequire(import.meta.url);
const pg = require('pg');
const { DataSource } = require('typeorm');
const dist = (path) => require(`../../control-plane/dist/${path}`);
const { dataSourceOptions } = dist('database/data-source.js');
const { TransactionRunner } = dist('database/transaction-runner.js');
const { LedgerService } = dist('wallet/ledger.service.js');
const { WalletRepository } = dist('wallet/wallet.repository.js');
const { RewardComputer } = dist('rewards/reward-computer.js');
const { RewardFactsRepository } = dist('rewards/reward-facts.repository.js');
const { RewardRunService, PAY_BATCH_SIZE } = dist('rewards/reward-run.service.js');
const { RewardStatementsRepository } = dist('rewards/reward-statements.repository.js');
const { ListingLocksRepository } = dist('market/listing-locks.repository.js');

const env = (name, fallback) => Number(process.env[name] ?? fallback);
const NODES = env('REWARDS_NODES', 100_000);
const OPERATORS = env('REWARDS_OPERATORS', 20_000);
const BATCH = env('REWARDS_BATCH', PAY_BATCH_SIZE);
const TARGET_S = 60;
// A 31-day month the control plane's own job leaves alone (it pays only the last ended month).
const PERIOD = '2026-08';
const START = '2026-08-01';
const END = '2026-08-31';

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
const peakRss = () => {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
};

const pgPort = await freePort();
const cp = await startControlPlane({ EMBEDDED_PG_PORT: String(pgPort) });
const dbUrl = process.env.DATABASE_URL ?? `postgres://postgres:postgres@127.0.0.1:${pgPort}/scn`;
const db = new pg.Client({ connectionString: dbUrl });
await db.connect();
let dataSource = null;
let failed = false;
try {
  let at = performance.now();
  await db.query(
    `CREATE TEMP TABLE ops AS SELECT i, gen_random_uuid() AS uuid FROM generate_series(0, $1::int - 1) AS i`,
    [OPERATORS],
  );
  await db.query(
    `INSERT INTO accounts (uuid, email, user_type, password_hash, name)
     SELECT uuid, 'bench.rewards.' || i || '@example.com', 'node', 'x', 'bench' FROM ops`,
  );
  // Mostly healthy nodes; every 250th hidden (below 95% now), every 500th banned; ages up to
  // 5.5 years (some past year 4: halving protection applies to them).
  await db.query(
    `INSERT INTO servers (id, owner_uuid, name, source, tier, host, port, inbound,
                          reliability_at_report, last_report_at, created_at, below_threshold_since, banned_at)
     SELECT gen_random_uuid(), o.uuid, 'Node ' || n, 'agent',
            (ARRAY['tier1','tier2','tier3','tier4'])[1 + n % 4], 'n' || n || '.example', 443,
            '{"security":"reality","sni":"www.example.com","fp":"chrome","pbk":"k","sid":"ab","flow":"xtls-rprx-vision","network":"tcp"}',
            100, now(), timestamptz '2026-08-01' - (n % 2000) * interval '1 day',
            CASE WHEN n % 250 = 0 THEN timestamptz '2026-08-30' END,
            CASE WHEN n % 500 = 0 THEN timestamptz '2026-08-31' END
     FROM generate_series(1, $1::int) AS n JOIN ops o ON o.i = n % $2::int`,
    [NODES, OPERATORS],
  );
  const serversAt = performance.now();
  // The month of history: mostly 95-100%, one node-day in 20 at 80-94% (below the threshold).
  await db.query(
    `INSERT INTO server_reliability_days
       (server_id, day, owner_uuid, tier, observed_seconds, reliability_seconds, below_seconds,
        min_reliability)
     SELECT s.id, d::date, s.owner_uuid, s.tier, 86400, r.r * 86400,
            CASE WHEN r.r < 95 THEN 86400 ELSE 0 END, r.r
     FROM servers s CROSS JOIN generate_series($1::date, $2::date, interval '1 day') AS d
     CROSS JOIN LATERAL (SELECT abs(hashtext(s.id::text || d::text)) AS h) AS x
     CROSS JOIN LATERAL (SELECT CASE WHEN x.h % 20 = 0 THEN 80 + x.h % 15 ELSE 95 + x.h % 6 END AS r) AS r`,
    [START, END],
  );
  // Every 10th operator staked 1,000 SSL in July (stake income); every 3rd auto-stakes 25%.
  await db.query(
    `WITH t AS (
       INSERT INTO ledger_transactions (id, type, created_at)
       SELECT gen_random_uuid(), 'stake', timestamptz '2026-07-15' FROM ops WHERE i % 10 = 0
       RETURNING id),
     n AS (SELECT id, row_number() OVER () AS k FROM t),
     o AS (SELECT uuid, row_number() OVER () AS k FROM ops WHERE i % 10 = 0)
     INSERT INTO ledger_entries (transaction_id, account_id, amount_micro, created_at)
     SELECT n.id, ledger_account_id(x.kind, x.owner), x.amount, timestamptz '2026-07-15'
     FROM n JOIN o ON o.k = n.k
     CROSS JOIN LATERAL (VALUES ('external', '00000000-0000-0000-0000-000000000000'::uuid, -1000000000::bigint),
                                ('stake', o.uuid, 1000000000::bigint)) AS x(kind, owner, amount)`,
  );
  await db.query(
    `INSERT INTO operator_economy_settings (owner_uuid, auto_stake_percent)
     SELECT uuid, 25 FROM ops WHERE i % 3 = 0`,
  );
  await db.query('ANALYZE');
  const [{ rows: days }] = [
    await db.query('SELECT count(*)::int AS n FROM server_reliability_days'),
  ];
  console.log(
    `Seeded ${OPERATORS.toLocaleString('en')} operators, ${NODES.toLocaleString('en')} servers (${secs(serversAt - at)}) and ${days[0].n.toLocaleString('en')} days of history in ${secs(performance.now() - at)}`,
  );

  dataSource = await new DataSource(dataSourceOptions(dbUrl)).initialize();
  const clock = { now: () => new Date('2026-09-01T02:00:00Z') };
  const computer = new RewardComputer(new RewardFactsRepository(dataSource));
  const statements = new RewardStatementsRepository(dataSource);
  const runs = new RewardRunService(
    computer,
    statements,
    new LedgerService(new WalletRepository(dataSource)),
    new TransactionRunner(dataSource),
    clock,
    new ListingLocksRepository(),
  );
  // Phase timings: wrap the run's steps.
  const phases = {};
  const timed = (object, method, name) => {
    const original = object[method].bind(object);
    object[method] = async (...args) => {
      const t0 = performance.now();
      try {
        return await original(...args);
      } finally {
        phases[name] = (phases[name] ?? 0) + performance.now() - t0;
      }
    };
  };
  timed(computer, 'draft', 'facts and statements (read, compute)');
  timed(statements, 'insertRun', 'write the run and its statements');
  if (process.env.REWARDS_DETAIL) {
    timed(statements, 'lockUnpaid', '  pay: lock unpaid statements');
    timed(statements, 'markPaid', '  pay: mark paid');
    timed(runs.ledger, 'postMany', '  pay: ledger_post');
  }
  let batches = 0;
  let firstBatchAt = 0;

  let maxRss = rssBytes(process.pid);
  const rssBefore = maxRss;
  const sampler = setInterval(() => {
    maxRss = Math.max(maxRss, rssBytes(process.pid));
  }, 50);
  const pgCpu = () => new Map(postgresPids(cp.pid).map((pid) => [pid, cpuMs(pid)]));
  const pgBefore = pgCpu();
  const selfBefore = cpuMs(process.pid);
  const machineBefore = machineCpuMs();
  at = performance.now();
  const outcome = await runs.runPeriod(PERIOD, {
    batchSize: BATCH,
    afterBatch: () => {
      batches += 1;
      if (batches === 1) firstBatchAt = performance.now();
    },
  });
  const wall = performance.now() - at;
  clearInterval(sampler);
  maxRss = Math.max(maxRss, rssBytes(process.pid));
  const self = cpuMs(process.pid) - selfBefore;
  const postgres = [...pgCpu()].reduce((sum, [pid, ms]) => sum + ms - (pgBefore.get(pid) ?? 0), 0);
  const busy = machineCpuMs().busy - machineBefore.busy;
  const others = Math.max(0, busy - self - postgres);

  console.log(
    `\nMonthly run of ${PERIOD}: ${outcome.paid.toLocaleString('en')} statements and ${outcome.stakingPaid.toLocaleString('en')} staking incomes paid in ${batches} batches of up to ${BATCH.toLocaleString('en')}: ${secs(wall)} (target under ${TARGET_S} s)`,
  );
  for (const [name, ms] of Object.entries(phases)) console.log(`  ${name.padEnd(40)} ${secs(ms)}`);
  for (const name of Object.keys(phases)) if (name.startsWith('  ')) delete phases[name];
  console.log(
    `  ${'pay in batches (ledger_post, mark paid)'.padEnd(40)} ${secs(wall - Object.values(phases).reduce((a, b) => a + b, 0))} (first batch after ${secs(firstBatchAt - at)})`,
  );
  console.log(
    `  CPU: this process ${secs(self)}, PostgreSQL ${secs(postgres)}, the rest of the machine ${secs(others)}`,
  );
  console.log(
    `  RSS of the process running it: ${mb(rssBefore)} before, peak ${mb(maxRss)} (VmHWM ${mb(peakRss())})`,
  );

  // The ledger: every statement paid once, the pool gave exactly what the statements say.
  const check = (
    await db.query(
      `SELECT (SELECT count(*)::int FROM reward_statements WHERE period = $1::date) AS statements,
              (SELECT count(*)::int FROM reward_statements WHERE period = $1::date AND status = 'computed') AS unpaid,
              (SELECT status FROM reward_runs WHERE period = $1::date) AS run,
              (SELECT COALESCE(sum(wallet_micro + auto_staked_micro + escrowed_micro), 0)::text
                 FROM reward_statements WHERE period = $1::date) AS owed,
              (SELECT COALESCE(sum(paid_micro), 0)::text FROM reward_staking_statements WHERE period = $1::date) AS staking,
              (SELECT COALESCE(-sum(e.amount_micro), 0)::text FROM ledger_entries e
                 JOIN ledger_transactions t ON t.id = e.transaction_id
                 JOIN ledger_accounts a ON a.id = e.account_id
               WHERE a.kind = 'reward_pool' AND t.type IN ('monthly_reward', 'staking_reward')) AS paid,
              (SELECT count(*)::int FROM ledger_transactions WHERE external_ref LIKE 'reward:%:' || $2) AS refs,
              (SELECT COALESCE(sum(amount_micro), 0)::text FROM ledger_entries) AS ledger_sum`,
      [START, PERIOD],
    )
  ).rows[0];
  const paidMatches = BigInt(check.paid) === BigInt(check.owed) + BigInt(check.staking);
  console.log(
    `  Check: ${check.statements.toLocaleString('en')} statements (${check.unpaid} unpaid, run ${check.run}), ${check.refs.toLocaleString('en')} reward movements, pool paid ${paidMatches ? 'exactly' : 'NOT'} what they owe, ledger sum ${check.ledger_sum}`,
  );
  if (check.unpaid !== 0 || check.run !== 'paid' || !paidMatches || check.ledger_sum !== '0') {
    failed = true;
  }

  at = performance.now();
  const again = await runs.runPeriod(PERIOD);
  console.log(
    `  A second run: ${again.paid} paid, computed ${again.computed}, in ${((performance.now() - at) / 1000).toFixed(2)} s`,
  );
  if (again.paid !== 0 || again.computed) failed = true;
  console.log(
    `\n${wall / 1000 < TARGET_S ? 'MET' : 'MISSED'}: ${secs(wall)} against ${TARGET_S} s`,
  );
  if (wall / 1000 >= TARGET_S) failed = true;
} finally {
  if (dataSource) await dataSource.destroy();
  await db.end();
  await cp.stop();
}
process.exit(failed ? 1 : 0);
