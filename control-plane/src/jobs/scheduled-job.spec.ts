import type { JobDefinition } from './job-registry';
import type { ClaimedRun, JobRunsRepository, RunOutcome } from './job-runs.repository';
import { JobScheduler } from './job-scheduler';
import { keepRunsMs, periodAt, ScheduledJob } from './scheduled-job';

/** job_runs in memory: each key claimed once; finishes recorded. */
function memoryRuns() {
  const claimed = new Set<string>();
  const finished: Array<{ period: string; outcome: RunOutcome; error: string | null }> = [];
  const grant = async (job: string, period: bigint): Promise<ClaimedRun | null> => {
    const key = `${job}:${period}`;
    if (claimed.has(key)) return null;
    claimed.add(key);
    return { job, period: period.toString(), takeovers: 0 };
  };
  const repository = {
    claim: grant,
    start: grant,
    heartbeat: async () => true,
    finish: async (run: ClaimedRun, _owner: string, outcome: RunOutcome, error: string | null) => {
      finished.push({ period: run.period, outcome, error });
      return true;
    },
    prune: async () => 0,
    lastSuccesses: async () => new Map<string, Date>(),
  };
  return { repository, finished };
}

function recordingLogger() {
  const lines: Array<{ level: 'warn' | 'error'; message: string }> = [];
  return {
    lines,
    logger: {
      warn: (_fields: unknown, message: string) => lines.push({ level: 'warn', message }),
      error: (_fields: unknown, message: string) => lines.push({ level: 'error', message }),
    },
  };
}

const LEASE = { leaseMs: 30_000, heartbeatMs: 10_000, pruneEveryMs: 600_000 };
const definition = (scope: 'cluster' | 'replica' = 'cluster'): JobDefinition => ({
  name: 'spec-job',
  intervalMs: 1000,
  lockId: null,
  scope,
});

describe('ScheduledJob', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  const clock = { now: () => new Date() };

  it('should run once per interval until stopped, recording each period', async () => {
    const { repository, finished } = memoryRuns();
    const run = jest.fn(async () => 1);
    const job = new ScheduledJob(
      definition(),
      1000,
      run,
      repository,
      clock,
      'me',
      LEASE,
      recordingLogger().logger,
    );
    job.start();
    job.start(); // a second start does not add a second timer
    await jest.advanceTimersByTimeAsync(3000);
    expect(run).toHaveBeenCalledTimes(3);
    expect(finished.map((f) => f.period)).toEqual(['1001', '1002', '1003']);
    job.stop();
    await jest.advanceTimersByTimeAsync(3000);
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('should not run a period another replica claimed', async () => {
    const { repository } = memoryRuns();
    const run = jest.fn(async () => 1);
    const logger = recordingLogger().logger;
    const mine = new ScheduledJob(definition(), 1000, run, repository, clock, 'a', LEASE, logger);
    const theirs = new ScheduledJob(definition(), 1000, run, repository, clock, 'b', LEASE, logger);
    expect(await mine.tick()).toEqual({ period: '1000', outcome: 'ok' });
    expect(await theirs.tick()).toBeNull();
    expect(run).toHaveBeenCalledTimes(1);
    expect(theirs.stats(null).skipped).toBe(1);
  });

  it('should run a replica-scoped job on every replica and record nothing', async () => {
    const { repository, finished } = memoryRuns();
    const run = jest.fn(async () => 1);
    const logger = recordingLogger().logger;
    const a = new ScheduledJob(
      definition('replica'),
      1000,
      run,
      repository,
      clock,
      'a',
      LEASE,
      logger,
    );
    const b = new ScheduledJob(
      definition('replica'),
      1000,
      run,
      repository,
      clock,
      'b',
      LEASE,
      logger,
    );
    expect(await a.tick()).toEqual({ period: null, outcome: 'ok' });
    expect(await b.tick()).toEqual({ period: null, outcome: 'ok' });
    expect(finished).toEqual([]);
    expect(a.stats(null).lastSuccessAt).toEqual(new Date(1_000_000));
  });

  it('should skip a tick while the last run is still going', async () => {
    const { repository } = memoryRuns();
    let finish!: () => void;
    const run = jest.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const job = new ScheduledJob(
      definition(),
      1000,
      run,
      repository,
      clock,
      'me',
      LEASE,
      recordingLogger().logger,
    );
    const first = job.tick();
    await jest.advanceTimersByTimeAsync(0);
    jest.setSystemTime(1_005_000);
    expect(await job.tick()).toBeNull();
    finish();
    expect(await first).toEqual({ period: '1000', outcome: 'ok' });
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('should log a database outage as a warning and other failures as errors, then go on', async () => {
    const { repository, finished } = memoryRuns();
    const outage = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    const failures = [outage, new Error('a bug')];
    const run = jest.fn(async () => {
      const failure = failures.shift();
      if (failure) throw failure;
    });
    const { lines, logger } = recordingLogger();
    const job = new ScheduledJob(definition(), 1000, run, repository, clock, 'me', LEASE, logger);
    for (let i = 0; i < 3; i += 1) {
      await job.tick();
      jest.setSystemTime(Date.now() + 1000);
    }
    expect(lines).toEqual([
      { level: 'warn', message: 'spec-job failed: database unavailable' },
      { level: 'error', message: 'spec-job failed' },
    ]);
    expect(finished.map((f) => f.outcome)).toEqual(['failed', 'failed', 'ok']);
    expect(finished[1]!.error).toBe('a bug');
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('should answer the period of a clock time, and keep an hour of runs or 100 periods', () => {
    expect(periodAt(new Date(59_999), 60_000)).toBe(0n);
    expect(periodAt(new Date(60_000), 60_000)).toBe(1n);
    expect(keepRunsMs(1000)).toBe(3_600_000);
    expect(keepRunsMs(5 * 60_000)).toBe(30_000_000);
  });
});

describe('JobScheduler.runAllNow (the test clock moved)', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('should run every started job now, and a running one again right after', async () => {
    const { repository } = memoryRuns();
    const scheduler = new JobScheduler(repository as unknown as JobRunsRepository);
    let finish!: () => void;
    const slow = jest.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const quick = jest.fn(async () => undefined);
    const stopped = jest.fn(async () => undefined);
    const def = (name: string): JobDefinition => ({ ...definition(), name, intervalMs: 60_000 });
    const slowJob = scheduler.start(def('slow'), slow);
    scheduler.start(def('quick'), quick);
    scheduler.start(def('stopped'), stopped).stop();
    const going = slowJob.tick();
    await jest.advanceTimersByTimeAsync(0);
    jest.setSystemTime(1_000_010); // moved by less than an interval: still a run
    scheduler.runAllNow();
    await jest.advanceTimersByTimeAsync(0);
    expect(quick).toHaveBeenCalledTimes(1);
    expect(stopped).not.toHaveBeenCalled();
    // The slow job was mid-run: it runs once more when that run ends, not twice at once.
    expect(slow).toHaveBeenCalledTimes(1);
    finish();
    await going;
    await jest.advanceTimersByTimeAsync(0);
    expect(slow).toHaveBeenCalledTimes(2);
    finish();
    await jest.advanceTimersByTimeAsync(0);
    expect(slow).toHaveBeenCalledTimes(2);
    expect(() => scheduler.start(def('quick'), quick)).toThrow('already started');
    scheduler.onApplicationShutdown();
  });
});
