import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { waitFor } from '../support/processes';

/**
 * The job scaffold across processes (jobs/job-scheduler.ts, built): replicas as separate node
 * processes on one database, each with its own timer. Each period runs once across them, and
 * a run whose process is killed mid-run (SIGKILL: no finish, no heartbeat, connections gone)
 * is taken over past its lease and finished by another process.
 */
const DIST = join(__dirname, '..', '..', 'dist');

/** One replica: a JobScheduler over its own DataSource, one test job; prints what it runs. */
const REPLICA = `
const { DataSource } = require('typeorm');
const { dataSourceOptions } = require(${JSON.stringify(join(DIST, 'database', 'data-source.js'))});
const { JobRunsRepository } = require(${JSON.stringify(join(DIST, 'jobs', 'job-runs.repository.js'))});
const { JobScheduler } = require(${JSON.stringify(join(DIST, 'jobs', 'job-scheduler.js'))});
(async () => {
  const source = new DataSource(dataSourceOptions(process.env.DB_URL));
  await source.initialize();
  const scheduler = new JobScheduler(new JobRunsRepository(source), {
    leaseMs: 1500,
    heartbeatMs: 300,
  });
  const hang = process.env.HANG === '1';
  scheduler.start(
    { name: process.env.JOB, intervalMs: Number(process.env.INTERVAL_MS), lockId: null, scope: 'cluster' },
    async () => {
      process.stdout.write('run\\n');
      if (hang) await new Promise(() => undefined);
    },
  );
  process.stdout.write('owner ' + scheduler.owner + '\\n');
  // SIGTERM: no new run; the one going finishes and is recorded.
  process.once('SIGTERM', () => {
    scheduler.onApplicationShutdown();
    setTimeout(() => process.exit(0), 500);
  });
  setInterval(() => undefined, 60_000);
})().catch((error) => {
  process.stderr.write(String(error && error.stack) + '\\n');
  process.exit(1);
});
`;

interface Replica {
  child: ChildProcess;
  owner: () => Promise<string>;
  runs: () => number;
  exited: Promise<unknown>;
}

describe('periodic jobs across replica processes', () => {
  let db: TestDatabase;
  const replicas: Replica[] = [];

  beforeAll(async () => {
    if (!existsSync(join(DIST, 'jobs', 'job-scheduler.js'))) {
      throw new Error(`${DIST} is missing the job scaffold: run \`npm run build\` first`);
    }
    db = await createTestDatabase();
  });

  afterAll(async () => {
    for (const replica of replicas) {
      if (replica.child.exitCode === null && replica.child.signalCode === null) {
        replica.child.kill('SIGTERM');
        await replica.exited;
      }
    }
    await db?.drop();
  });

  function start(job: string, intervalMs: number, hang = false): Replica {
    const child = spawn(process.execPath, ['-e', REPLICA], {
      cwd: join(__dirname, '..', '..'),
      env: {
        PATH: process.env.PATH,
        DB_URL: db.url,
        JOB: job,
        INTERVAL_MS: String(intervalMs),
        HANG: hang ? '1' : '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    const replica: Replica = {
      child,
      exited,
      runs: () => output.split('\n').filter((line) => line === 'run').length,
      owner: () =>
        waitFor(
          'the replica to start',
          async () => {
            if (child.exitCode !== null) throw new Error(`the replica exited: ${errors}`);
            return /^owner (.+)$/m.exec(output)?.[1] ?? null;
          },
          20_000,
        ),
    };
    replicas.push(replica);
    return replica;
  }

  const rowsOf = (job: string) =>
    db.query<{ period: string; owner: string; outcome: string | null; takeovers: number }>(
      `SELECT period::text AS period, owner, outcome, takeovers FROM job_runs
       WHERE job = $1 ORDER BY job_runs.period`,
      [job],
    );

  it('should run each period once across three processes, each with its own timer', async () => {
    const three = [start('e2e-three', 200), start('e2e-three', 200), start('e2e-three', 200)];
    const owners = await Promise.all(three.map((r) => r.owner()));
    await waitFor(
      'fifteen runs',
      async () => ((await rowsOf('e2e-three')).length >= 15 ? true : null),
      30_000,
    );
    for (const replica of three) replica.child.kill('SIGTERM');
    await Promise.all(three.map((r) => r.exited));
    const rows = await rowsOf('e2e-three');
    // Every run a process made is one recorded period (three timers would have made three).
    expect(three.reduce((sum, r) => sum + r.runs(), 0)).toBe(rows.length);
    expect(rows.every((row) => row.outcome === 'ok')).toBe(true);
    expect(rows.every((row) => owners.includes(row.owner))).toBe(true);
  });

  it('should have another process take over and finish a run whose process was killed', async () => {
    const dying = start('e2e-killed', 1000, true);
    const dyingOwner = await dying.owner();
    const [claimed] = await waitFor(
      'the run claimed by the process that will die',
      async () => {
        const rows = await rowsOf('e2e-killed');
        return rows.length > 0 ? rows : null;
      },
      20_000,
    );
    expect(claimed).toMatchObject({ owner: dyingOwner, outcome: null });
    dying.child.kill('SIGKILL');
    await dying.exited;

    const taker = start('e2e-killed', 1000);
    const takerOwner = await taker.owner();
    const taken = await waitFor(
      'the takeover',
      async () => {
        const [row] = (await rowsOf('e2e-killed')).filter((r) => r.period === claimed!.period);
        return row && row.outcome !== null ? row : null;
      },
      20_000,
    );
    expect(taken).toEqual({
      period: claimed!.period,
      owner: takerOwner,
      outcome: 'ok',
      takeovers: 1,
    });
  });
});
