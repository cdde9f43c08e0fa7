#!/usr/bin/env node
// `npm run bench:smoke` (CI, .ci/run): every benchmark once at a tiny size, through the same code
// as a real run, so that a benchmark that no longer runs (a changed API, a default it does not
// configure) fails CI instead of being found broken on the day someone measures. Each must exit
// 0 within its time limit; the figures mean nothing at these sizes and no target is judged here.
// A benchmark folder without sizes below fails too: give it some when adding one.
//
// `node bench/smoke.mjs <name>` runs only that one.
//
// Each runs on its own embedded PostgreSQL (DATABASE_URL is not passed on), as on a fresh
// checkout after `npm run build`.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * Each benchmark's environment knobs at smoke size (see the knobs at the top of each index.mjs);
 * a list runs it once per entry (its modes).
 */
export const SMOKE = {
  accounts: { ACCOUNTS_SCALE: '0.05' },
  'deposit-watch': { DEPOSIT_WATCH_ACCOUNTS: '20', DEPOSIT_WATCH_SECONDS: '8' },
  geoip: { GEOIP_ROUNDS: '1', GEOIP_LOOKUPS: '10000' },
  feed: { FEED_REQUESTS: '100', FEED_WARMUP: '20', FEED_CONCURRENCY: '5' },
  history: { HISTORY_SERVERS: '200', HISTORY_CHURN_MINUTES: '2' },
  ingest: [
    {
      INGEST_NODES: '20',
      INGEST_SECONDS: '1',
      INGEST_WARMUP_SECONDS: '1',
      INGEST_TRANSPORTS: 'stream',
      INGEST_AGENT_SECONDS: '3',
    },
    {
      INGEST_REPLICAS: '2',
      INGEST_AGENTS: '40',
      INGEST_ENROLLED: '10',
      INGEST_FLEET_WORKERS: '2',
      INGEST_REPORT_INTERVAL_MS: '1000',
      INGEST_BACKOFF_MS: '200',
      INGEST_SECONDS: '2',
    },
  ],
  market: {
    MARKET_SERVERS: '1000',
    MARKET_REQUESTS: '50',
    MARKET_WARMUP_REQUESTS: '20',
    MARKET_CONCURRENCY: '5',
  },
  purchase: {
    PURCHASES: '40',
    PURCHASE_CLIENTS: '10',
    PURCHASE_SERVERS: '20',
    PURCHASE_OPERATORS: '5',
    PURCHASE_CONCURRENCY: '5',
    PURCHASE_WARMUP: '10',
    FIRST_BYTE_RUNS: '1',
  },
  'portal-load': { PORTAL_LOAD_RUNS: '1' },
  qr: { QR_ROUNDS: '1', QR_IMAGES: '5' },
  rewards: { REWARDS_NODES: '200', REWARDS_OPERATORS: '40', REWARDS_BATCH: '50' },
  sessions: { SESSIONS_REQUESTS: '200' },
};
const LIMIT_MS = 90_000;

const names = readdirSync(here, { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'lib' && existsSync(join(here, d.name, 'index.mjs')))
  .map((d) => d.name)
  .filter((name) => !process.argv[2] || name === process.argv[2])
  .sort();

/** Sends `signal` to the benchmark's process group: it and what it started (control plane, agent). */
function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is gone
  }
}

function runOne(name, knobs) {
  return new Promise((resolve) => {
    const env = { ...process.env, ...knobs };
    delete env.DATABASE_URL;
    const started = performance.now();
    // Its own process group, so that a benchmark stopped at the limit takes its control plane,
    // PostgreSQL and agents with it.
    const child = spawn(process.execPath, [join(here, name, 'index.mjs')], {
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    let timedOut = false;
    // At the limit: SIGTERM to the group (the control plane stops its PostgreSQL), SIGKILL to
    // whatever is left 5 s later.
    const timer = setTimeout(() => {
      timedOut = true;
      signalGroup(child, 'SIGTERM');
    }, LIMIT_MS);
    // 'exit', not 'close': a process it left behind would hold the pipes open.
    child.on('exit', (code) => {
      clearTimeout(timer);
      const seconds = (performance.now() - started) / 1000;
      const done = () => resolve({ code, timedOut, output, seconds });
      if (!timedOut) return done();
      setTimeout(() => {
        signalGroup(child, 'SIGKILL');
        done();
      }, 5000);
    });
  });
}

let failed = false;
const started = performance.now();
for (const name of names) {
  if (!SMOKE[name]) {
    console.log(`FAIL  bench/${name}: no smoke sizes in bench/smoke.mjs`);
    failed = true;
    continue;
  }
  const modes = Array.isArray(SMOKE[name]) ? SMOKE[name] : [SMOKE[name]];
  for (const [index, knobs] of modes.entries()) {
    const result = await runOne(name, knobs);
    const ok = result.code === 0;
    const why = result.timedOut ? `stopped after ${LIMIT_MS / 1000} s` : `exit ${result.code}`;
    const label = index === 0 ? `bench/${name}` : `bench/${name} (mode ${index + 1})`;
    console.log(
      `${ok ? 'PASS' : 'FAIL'}  ${label}  ${result.seconds.toFixed(1)} s${ok ? '' : `  (${why})`}`,
    );
    if (!ok) {
      failed = true;
      // The first lines name the error; the last ones say where the run was when it ended.
      const lines = result.output.trimEnd().split('\n');
      const shown =
        lines.length <= 60 ? lines : [...lines.slice(0, 20), '...', ...lines.slice(-40)];
      console.log(shown.map((l) => `  | ${l}`).join('\n'));
    }
  }
}
console.log(`bench smoke: ${((performance.now() - started) / 1000).toFixed(0)} s in all`);
process.exit(failed ? 1 : 0);
