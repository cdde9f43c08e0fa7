import type { LoggerService } from '@nestjs/common';
import { isDatabaseUnavailable } from './database-unavailable';

/** What a background job needs from its logger (Nest's `Logger` fits). */
type JobLogger = Pick<LoggerService, 'warn' | 'error'>;

/**
 * Runs a job every `intervalMs` while the application is up: never two runs of one process at
 * once (a tick that finds the last run still going is skipped), the timer never keeps the
 * process alive, and a failed run is logged, the next tick trying again. A database outage is
 * not a bug: it is a warning, and the next run catches up.
 */
export class PeriodicJob {
  private timer: NodeJS.Timeout | null = null;
  private running = false;

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
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
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
    return true;
  }
}
