import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReliabilitySweepJob } from '../../src/agent-reports/reliability-sweep.job';
import { DepositWatcherJob } from '../../src/deposits/deposit-watcher.job';
import { RewardsJob } from '../../src/rewards/rewards.job';
import { ServerDropJob } from '../../src/subscriptions/server-drop.job';
import { SubscriptionBillingJob } from '../../src/subscriptions/subscription-billing.job';
import { WithdrawalPayoutJob } from '../../src/withdrawals/withdrawal-payout.job';
import { type FundingChain, startFundingChain } from '../support/chain-deposits';
import { casesFor, type FuzzCase, type Identity } from '../support/fuzz/cases';
import { FuzzFixtures } from '../support/fuzz/fixtures';
import { RawHttpClient } from '../support/fuzz/http';
import { type OpenApiDocument, type Operation, operationsOf } from '../support/fuzz/openapi';
import { SeededRandom } from '../support/fuzz/random';
import { installWriteLog, type TableWrite, type WriteLog } from '../support/fuzz/write-log';
import { ledgerViolations } from '../support/ledger';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Input fuzzing: every operation of the OpenAPI document the app serves, as a
 * signed-in client, a signed-in operator and anonymously, with malformed, mistyped, oversized,
 * unicode-edge and injection values in its path, query, body and headers. No answer may be a
 * 5xx (or no answer), and a refused request (4xx) may change no table but those that record
 * refusals themselves. Seeded: FUZZ_SEED reproduces a run, FUZZ_SIZE scales it (docs/development.md).
 */

const SEED = Number(process.env.FUZZ_SEED ?? 15);
const SIZE = Number(process.env.FUZZ_SIZE ?? 1);

/**
 * Tables a refused request may write, because recording the refusal is their job:
 * - rate_limit_buckets: every admitted attempt counts against the limit, whatever the handler
 *   answers next (a wrong password must use up the allowance), and the limiter prunes the
 *   timestamps that left the window as it goes;
 * - verification_codes (UPDATE): a wrong code uses up one of the code's 5 attempts, committed
 *   before the comparison (docs/security.md, "E-mailed codes").
 */
const REFUSAL_RECORDS: Record<string, ReadonlyArray<TableWrite['op']>> = {
  rate_limit_buckets: ['INSERT', 'UPDATE', 'DELETE'],
  verification_codes: ['UPDATE'],
  // Not a request's write at all: the periodic jobs' record of runs (jobs/job-runs.repository.ts),
  // written by the job scheduler whenever a period starts, which the log cannot tell apart from
  // the request it happened to run beside.
  job_runs: ['INSERT', 'UPDATE', 'DELETE'],
};

/** Which signed-in identity an operation is meant for; the other two get a sample of its cases. */
function primaryIdentity(operation: Operation): Identity {
  return /^\/(api\/)?(nodes|wallet\/node|api\/wallet\/node|servers\/)|create-node-wallet/.test(
    operation.path,
  )
    ? 'operator'
    : 'client';
}

interface Outcome {
  label: string;
  status: number;
  body: string;
  writes: TableWrite[];
}

jest.setTimeout(600_000);

let t: TestApp;
let funding: FundingChain;
let fixtures: FuzzFixtures;
let http: RawHttpClient;
let writeLog: WriteLog;
let operations: Operation[];
const outcomes: Outcome[] = [];

beforeAll(async () => {
  // Deposits on, against the local chain: their routes are fuzzed too, and the
  // fixtures' clients are funded through real deposits on it. Withdrawals on as
  // well, signed with the chain's treasury key file, so their rules are fuzzed.
  const treasuryKeyFile = join(mkdtempSync(join(tmpdir(), 'scn-fuzz-treasury-')), 'treasury.json');
  funding = await startFundingChain({ treasuryKeyFile });
  t = await startTestApp({
    ...funding.env,
    WITHDRAWALS_ENABLED: 'true',
    SOLANA_TREASURY_KEY_FILE: treasuryKeyFile,
  });
  // Timers would write (renewals, reliability, probes) while a refused request is in flight.
  t.app.get(SubscriptionBillingJob).onApplicationShutdown();
  t.app.get(ServerDropJob).onApplicationShutdown();
  t.app.get(ReliabilitySweepJob).onApplicationShutdown();
  t.app.get(DepositWatcherJob).onApplicationShutdown();
  t.app.get(WithdrawalPayoutJob).onApplicationShutdown();
  t.app.get(RewardsJob).onApplicationShutdown();
  await t.app.listen(0, '127.0.0.1');
  http = new RawHttpClient((t.app.getHttpServer().address() as AddressInfo).port);
  fixtures = await FuzzFixtures.create(t, funding);
  const served = await http.send('get', '/api/docs-json', {}, null);
  operations = operationsOf(JSON.parse(served.body) as OpenApiDocument);
  writeLog = await installWriteLog(t.db);
});
afterAll(async () => {
  http?.close();
  await t?.close();
  await funding?.stop();
});

const random = new SeededRandom(SEED);

/**
 * Calls that finish their work after answering (so the answer's timing says nothing about the
 * account), with the table that work always writes once the call was accepted: forgot-password
 * stores a reset code for every e-mail, with an account or not (auth.service.ts).
 */
const DEFERRED_WRITES: ReadonlyArray<{ path: RegExp; table: string }> = [
  { path: /^\/api\/auth\/forgot-password(\?|$)/, table: 'verification_codes' },
];

/** Drains the write log until `table` was written (the deferred work landed), keeping all. */
async function drainUntil(table: string): Promise<TableWrite[]> {
  const writes: TableWrite[] = [];
  for (let attempt = 0; attempt < 1500; attempt += 1) {
    writes.push(...(await writeLog.drain()));
    if (writes.some((w) => w.table === table)) return writes;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the work deferred after the answer never wrote ${table}`);
}

/**
 * Sends one case and takes the writes committed meanwhile as its own: cases go one at a time,
 * so a write is never credited to the wrong request (the background jobs are stopped; a call
 * that finishes work after answering is waited for until that work wrote, DEFERRED_WRITES).
 */
async function run(fuzzCase: FuzzCase): Promise<void> {
  const headers = {
    'x-forwarded-for': random.testNetAddress(),
    ...fixtures.credentials(fuzzCase.identity, fuzzCase.auth),
    ...fuzzCase.headers,
  };
  const response = await http.send(fuzzCase.method, fuzzCase.target, headers, fuzzCase.body);
  const accepted = response.status >= 200 && response.status < 400;
  const deferred = accepted ? DEFERRED_WRITES.find((d) => d.path.test(fuzzCase.target)) : undefined;
  const writes = deferred ? await drainUntil(deferred.table) : await writeLog.drain();
  outcomes.push({ label: fuzzCase.label, status: response.status, body: response.body, writes });
  // Only a write can log out, delete or pause what the next cases act on.
  if (accepted && fuzzCase.method !== 'get' && (await fixtures.repair())) {
    await writeLog.drain(); // the fixtures' own writes belong to no request
  }
}

it('should answer every hostile request of every operation without a 5xx or a refused write', async () => {
  expect(operations.length).toBeGreaterThan(40);
  for (const operation of operations) {
    const primary = primaryIdentity(operation);
    const cases = casesFor(operation, fixtures.valuesFor(primary, operation), random, SIZE);
    for (const identity of ['client', 'operator', 'anonymous'] as const) {
      if (identity === primary) continue;
      const others = casesFor(operation, fixtures.valuesFor(identity, operation), random, SIZE);
      cases.push(others[0]!, ...random.sample(others.slice(1), Math.round(6 * SIZE)));
    }
    for (const fuzzCase of cases) await run(fuzzCase);
  }

  const failed = outcomes.filter((o) => o.status >= 500 || o.status <= 0);
  const refusedWrites = outcomes
    .filter((o) => o.status >= 400 && o.status < 500)
    .map((o) => ({
      ...o,
      writes: o.writes.filter((w) => !REFUSAL_RECORDS[w.table]?.includes(w.op)),
    }))
    .filter((o) => o.writes.length > 0);
  const count = (from: number, to: number) =>
    outcomes.filter((o) => o.status >= from && o.status < to).length;
  process.stdout.write(
    `\n[input-fuzz] seed ${SEED}, size ${SIZE}: ${outcomes.length} requests over ` +
      `${operations.length} operations; ${count(200, 400)} accepted, ${count(400, 500)} refused, ` +
      `${failed.length} 5xx or unanswered, ${refusedWrites.length} refused with a write\n`,
  );
  // Not a failure, but less coverage: operations whose valid request (from the document's
  // schemas and the fixtures) was refused, so their hostile variants were refused early too.
  const refusedValid = outcomes.filter((o) => o.label.endsWith(': valid') && o.status === 400);
  for (const o of refusedValid) process.stdout.write(`  valid but 400: ${o.label} ${o.body}\n`);
  for (const o of [...failed, ...refusedWrites].slice(0, 40)) {
    process.stdout.write(
      `  ${o.status} ${o.label} ${o.body.slice(0, 120)} ${JSON.stringify(o.writes)}\n`,
    );
  }
  expect(failed.map((o) => `${o.status} ${o.label}`)).toEqual([]);
  expect(refusedWrites.map((o) => `${o.label}: ${JSON.stringify(o.writes)}`)).toEqual([]);
  // The write log works: accepted requests were seen writing.
  expect(outcomes.filter((o) => o.status < 300 && o.writes.length > 0).length).toBeGreaterThan(50);
  expect(await ledgerViolations(t.db.url)).toEqual([]);
});
