import { PeriodicJob, runStartedJobsNow } from './periodic-job';

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

describe('PeriodicJob', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('should run the job once per interval until stopped', async () => {
    const run = jest.fn(async () => undefined);
    const job = new PeriodicJob('Spec job', 1000, run, recordingLogger().logger);
    job.start();
    job.start(); // a second start does not add a second timer
    await jest.advanceTimersByTimeAsync(3000);
    expect(run).toHaveBeenCalledTimes(3);
    job.stop();
    await jest.advanceTimersByTimeAsync(3000);
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('should skip a tick while the last run is still going', async () => {
    let finish!: () => void;
    const run = jest.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const job = new PeriodicJob('Spec job', 1000, run, recordingLogger().logger);
    const first = job.tick();
    expect(await job.tick()).toBe(false);
    finish();
    expect(await first).toBe(true);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('should log a database outage as a warning and other failures as errors, then go on', async () => {
    const outage = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    const failures = [outage, new Error('a bug')];
    const run = jest.fn(async () => {
      const failure = failures.shift();
      if (failure) throw failure;
    });
    const { lines, logger } = recordingLogger();
    const job = new PeriodicJob('Spec job', 1000, run, logger);
    await job.tick();
    await job.tick();
    await job.tick();
    expect(lines).toEqual([
      { level: 'warn', message: 'Spec job failed: database unavailable' },
      { level: 'error', message: 'Spec job failed' },
    ]);
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('should run every started job now when asked, and a running one again right after', async () => {
    let finish!: () => void;
    const slow = jest.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const quick = jest.fn(async () => undefined);
    const stopped = jest.fn(async () => undefined);
    const { logger } = recordingLogger();
    const jobs = [
      new PeriodicJob('Slow', 60_000, slow, logger),
      new PeriodicJob('Quick', 60_000, quick, logger),
      new PeriodicJob('Stopped', 60_000, stopped, logger),
    ];
    jobs.forEach((job) => job.start());
    jobs[2]!.stop();
    const going = jobs[0]!.tick();
    runStartedJobsNow();
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
    jobs.forEach((job) => job.stop());
  });
});
