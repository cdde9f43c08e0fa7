import type { LoggerService } from '@nestjs/common';
import { isDatabaseUnavailable } from './database-unavailable';

/** What a background job needs from its logger (Nest's `Logger` fits). */
type JobLogger = Pick<LoggerService, 'warn' | 'error'>;

/** The jobs started in this process (stopped ones leave), for `runStartedJobsNow`. */
const started = new Set<PeriodicJob>();

/**
 * Runs every started job once now (a job in the middle of a run runs again right after it).
 * The test clock calls it when a test moves time (common/test-clock.ts): time passed for every
 * job, so each does what its next tick would have done, without waiting for its interval.
 */
export function runStartedJobsNow(): void {
  for (const job of started) job.runSoon();
}

/**
 * Runs a job every `intervalMs` while the application is up: never two runs of one process at
 * once (a tick that finds the last run still going is skipped), the timer never keeps the
 * process alive, and a failed run is logged, the next tick trying again. A database outage is
 * not a bug: it is a warning, and the next run catches up.
 */
export class PeriodicJob {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  /** runSoon found a run going: run again once it ends. */
  private again = false;

  constructor(
    /** How the job is named in its log lines ("Subscription billing"). */
    private readonly name: string,
    private readonly intervalMs: number,
    private readonly run: () => Promise<unknown>,
    private readonly logger: JobLogger,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref();
    started.add(this);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.again = false;
    started.delete(this);
  }

  /** A run now, or right after the one going (which may have read the time before it moved). */
  runSoon(): void {
    if (this.running) this.again = true;
    else void this.tick();
  }

  /** One run now unless one is going (then false); failures are logged, never thrown. */
  async tick(): Promise<boolean> {
    if (this.running) return false;
    this.running = true;
    try {
      await this.run();
    } catch (error) {
      if (isDatabaseUnavailable(error)) {
        this.logger.warn(
          { err: { message: (error as Error).message } },
          `${this.name} failed: database unavailable`,
        );
      } else {
        this.logger.error({ err: error }, `${this.name} failed`);
      }
    } finally {
      this.running = false;
    }
    if (this.again && this.timer) {
      this.again = false;
      void this.tick();
    }
    return true;
  }
}
