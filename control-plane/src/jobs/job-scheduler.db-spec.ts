import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { dataSourceOptions } from '../database/data-source';
import type { JobDefinition } from './job-registry';
import { JobRunsRepository } from './job-runs.repository';
import { JobScheduler } from './job-scheduler';
import type { LeaseSettings } from './scheduled-job';

/**
 * The job scaffold against real PostgreSQL, each replica a JobScheduler on a DataSource (a pool
 * of connections) of its own, as separate processes would have: one run per period across the
 * replicas, a run whose replica stops taken over after its lease, every run recorded.
 */
let db: TestDatabase;
const sources: DataSource[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  for (const source of sources) if (source.isInitialized) await source.destroy();
  await db?.drop();
});

interface RunRow {
  period: string;
  owner: string;
  outcome: string | null;
  error: string | null;
  started_at: Date;
  finished_at: Date | null;
  lease_until: Date;
  duration_ms: number | null;
  takeovers: number;
}

/** A schedule clock the test moves by hand, shared by the replicas. */
function manualClock(start: number) {
  const clock = { ms: start, now: () => new Date(clock.ms) };
  return clock;
}

async function replica(
  name: string,
  clock: { now(): Date },
  lease: Partial<LeaseSettings> = {},
): Promise<{ scheduler: JobScheduler; source: DataSource }> {
  const options = dataSourceOptions(db.url);
  const source = new DataSource({
    ...options,
    extra: { ...(options.extra as object), max: 4, application_name: `spec-replica-${name}` },
  } as typeof options);
  await source.initialize();
  sources.push(source);
  const scheduler = new JobScheduler(
    new JobRunsRepository(source),
    { pruneEveryMs: 3_600_000, ...lease },
    clock,
  );
  return { scheduler, source };
}

function job(name: string, intervalMs = 1000): JobDefinition {
  return { name, intervalMs, lockId: null, scope: 'cluster' };
}

const runsOf = (name: string) =>
  db.query<RunRow>(
    `SELECT period::text AS period, owner, outcome, error, started_at, finished_at, lease_until,
            duration_ms, takeovers
     FROM job_runs WHERE job = $1 ORDER BY job_runs.period`,
    [name],
  );

async function until<T>(what: string, probe: () => Promise<T | null>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('JobScheduler over one database', () => {
  it('should run each period exactly once when five replicas all tick in it', async () => {
    const base = 1_800_000_000_000;
    const clock = manualClock(base + 10);
    const replicas = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((n) => replica(n, clock)));
    const ran: Array<{ replica: number; at: number }> = [];
    const jobs = replicas.map(({ scheduler }, i) => {
      const started = scheduler.start(job('spec-five'), async () => {
        ran.push({ replica: i, at: clock.ms });
      });
      started.stop(); // the test ticks by hand
      return started;
    });

    for (let period = 0; period < 8; period += 1) {
      clock.ms = base + period * 1000 + 10;
      const results = await Promise.all(jobs.map((j) => j.tick()));
      expect(results.filter((r) => r !== null)).toEqual([
        { period: String(base / 1000 + period), outcome: 'ok' },
      ]);
    }

    expect(ran).toHaveLength(8);
    const rows = await runsOf('spec-five');
    expect(rows.map((r) => Number(r.period) - base / 1000)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (const row of rows) {
      expect(row.outcome).toBe('ok');
      expect(row.takeovers).toBe(0);
      expect(row.finished_at!.getTime()).toBeGreaterThanOrEqual(row.started_at.getTime());
      expect(row.duration_ms).not.toBeNull();
    }
    const stats = (await Promise.all(replicas.map(({ scheduler }) => scheduler.jobStats()))).flat();
    expect(stats.reduce((sum, s) => sum + s.runs.ok, 0)).toBe(8);
    expect(stats.reduce((sum, s) => sum + s.skipped, 0)).toBe(32);
    const last = Math.max(...rows.map((r) => r.finished_at!.getTime()));
    for (const s of stats) expect(s.lastSuccessAt?.getTime()).toBe(last);
  });

  it('should run no period twice when five replicas run on their own timers', async () => {
    const clock = { now: () => new Date() };
    const replicas = await Promise.all(['f', 'g', 'h', 'i', 'j'].map((n) => replica(n, clock)));
    const periods: number[] = [];
    const intervalMs = 100;
    const jobs = replicas.map(({ scheduler }) =>
      scheduler.start(job('spec-timers', intervalMs), async () => {
        periods.push(Math.floor(Date.now() / intervalMs));
      }),
    );
    await until('twenty runs', async () => (periods.length >= 20 ? true : null));
    for (const j of jobs) j.stop();
    await sleep(300); // runs under way finish
    const rows = await runsOf('spec-timers');
    // Five timers a period would have run about five times as often (the old PeriodicJob).
    expect(rows.length).toBe(periods.length);
    expect(new Set(rows.map((r) => r.period)).size).toBe(rows.length);
    expect(rows.every((r) => r.outcome === 'ok')).toBe(true);
    const span = Number(rows[rows.length - 1]!.period) - Number(rows[0]!.period) + 1;
    expect(rows.length).toBeLessThanOrEqual(span);
  });

  it('should take a run over when its replica stops heartbeating, and finish it elsewhere', async () => {
    const clock = manualClock(1_900_000_000_000);
    const lease = { leaseMs: 1500, heartbeatMs: 300 };
    const a = await replica('dying', clock, lease);
    const b = await replica('taker', clock, lease);
    let release!: () => void;
    const hanging = new Promise<void>((resolve) => (release = resolve));
    const onA = a.scheduler.start(job('spec-takeover', 60_000), () => hanging);
    onA.stop();
    let bRuns = 0;
    const onB = b.scheduler.start(job('spec-takeover', 60_000), async () => {
      bRuns += 1;
    });
    onB.stop();

    void onA.tick();
    const claimed = await until('the run claimed by the dying replica', async () => {
      const [row] = await runsOf('spec-takeover');
      return row ?? null;
    });
    expect(claimed.owner).toBe(a.scheduler.owner);

    // Alive: heartbeats move its lease on, and the other replica leaves it alone.
    await until('a heartbeat', async () => {
      const [row] = await runsOf('spec-takeover');
      return row!.lease_until.getTime() > claimed.lease_until.getTime() ? true : null;
    });
    expect(await onB.tick()).toBeNull();

    // The replica dies: its connections are cut and its pool closed (no heartbeat reaches the
    // database again); its work goes on (released at the end, when its record fails).
    await db.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`,
      ['spec-replica-dying'],
    );
    await a.source.destroy().catch(() => undefined);

    // Past its lease the run is taken over, even a period later, and finished by the other.
    await until('the lease to expire', async () => {
      const [row] = await db.query<{ expired: boolean }>(
        `SELECT lease_until <= clock_timestamp() AS expired FROM job_runs WHERE job = $1`,
        ['spec-takeover'],
      );
      return row!.expired ? true : null;
    });
    clock.ms += 3 * 60_000;
    const taken = await onB.tick();
    expect(taken).toEqual({ period: claimed.period, outcome: 'ok' });
    expect(bRuns).toBe(1);
    const [row] = await runsOf('spec-takeover');
    expect(row).toMatchObject({ owner: b.scheduler.owner, outcome: 'ok', takeovers: 1 });
    expect(row!.finished_at).not.toBeNull();

    // Then the current period, as usual.
    expect(await onB.tick()).toEqual({
      period: String(Number(claimed.period) + 3),
      outcome: 'ok',
    });
    release();
  });

  it('should record a failed run with its error, a skipped one, and keep the last success', async () => {
    const clock = manualClock(2_000_000_000_000);
    const { scheduler } = await replica('outcomes', clock);
    let answer: 'ok' | 'throw' | 'busy' = 'ok';
    const j = scheduler.start(job('spec-outcomes'), async () => {
      if (answer === 'throw') throw new Error('the chain said no');
      return answer === 'busy' ? null : 1;
    });
    j.stop();
    expect(await j.tick()).toMatchObject({ outcome: 'ok' });
    clock.ms += 1000;
    answer = 'throw';
    expect(await j.tick()).toMatchObject({ outcome: 'failed' });
    clock.ms += 1000;
    answer = 'busy';
    expect(await j.tick()).toMatchObject({ outcome: 'skipped' });

    const rows = await runsOf('spec-outcomes');
    expect(rows.map((r) => [r.outcome, r.error])).toEqual([
      ['ok', null],
      ['failed', 'the chain said no'],
      ['skipped', null],
    ]);
    const [stats] = await scheduler.jobStats();
    expect(stats).toMatchObject({ runs: { ok: 1, failed: 1 }, skipped: 1 });
    expect(stats!.lastSuccessAt).toEqual(rows[0]!.finished_at);
  });

  it('should run out of schedule under a key of its own, even in a period already run', async () => {
    const clock = manualClock(2_100_000_000_000);
    const { scheduler } = await replica('moved', clock);
    let runs = 0;
    const j = scheduler.start(job('spec-moved', 60_000), async () => {
      runs += 1;
    });
    j.stop();
    expect(await j.tick()).toMatchObject({ outcome: 'ok' });
    expect(await j.tick()).toBeNull(); // the period is done
    clock.ms += 5; // the test clock moved: the job runs again in the same period
    expect(await j.runNow()).toEqual({ period: String(-clock.ms), outcome: 'ok' });
    expect(runs).toBe(2);
  });

  it('should run a started job now by its definition, and nothing when it is not started', async () => {
    const clock = manualClock(2_150_000_000_000);
    const { scheduler } = await replica('by-name', clock);
    let runs = 0;
    scheduler.runNow(job('spec-by-name', 60_000)); // not started here: nothing
    const j = scheduler.start(job('spec-by-name', 60_000), async () => {
      runs += 1;
    });
    scheduler.runNow(job('spec-by-name', 60_000));
    await until('the run asked for', async () =>
      (await runsOf('spec-by-name')).some((r) => r.outcome === 'ok') ? true : null,
    );
    expect(runs).toBe(1);
    j.stop();
    scheduler.runNow(job('spec-by-name', 60_000)); // stopped: nothing
    await sleep(200);
    expect(runs).toBe(1);
    expect(await runsOf('spec-by-name')).toMatchObject([
      { period: String(-clock.ms), outcome: 'ok' },
    ]);
  });

  it('should prune old runs but keep the last success', async () => {
    const clock = manualClock(2_200_000_000_000);
    const { source } = await replica('pruner', clock);
    await db.query(
      `INSERT INTO job_runs (job, period, owner, started_at, lease_until, finished_at, outcome)
       SELECT 'spec-prune', p, 'x', now() - interval '3 hours' + p * interval '1 second',
              now(), now() - interval '3 hours' + p * interval '1 second',
              CASE WHEN p = 5 THEN 'ok' ELSE 'failed' END
       FROM generate_series(1, 10) p
       UNION ALL SELECT 'spec-prune', 100, 'x', now(), now(), now(), 'failed'`,
    );
    const repository = new JobRunsRepository(source);
    expect(await repository.prune('spec-prune', 3_600_000)).toBe(9);
    expect((await runsOf('spec-prune')).map((r) => [r.period, r.outcome])).toEqual([
      ['5', 'ok'],
      ['100', 'failed'],
    ]);
  });
});
