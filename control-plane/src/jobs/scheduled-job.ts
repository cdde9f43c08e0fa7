import type { LoggerService } from '@nestjs/common';
import type { Clock } from '../common/clock';
import { isDatabaseUnavailable } from '../common/database-unavailable';
import type { JobDefinition } from './job-registry';
import type { JobStats } from './job-stats';
import type { ClaimedRun, JobRunsRepository, RunOutcome } from './job-runs.repository';

/** What a job needs from its logger (Nest's `Logger` fits). */
export type JobLogger = Pick<LoggerService, 'warn' | 'error'>;

/** The lease and its upkeep, the same for every job of a scheduler. */
export interface LeaseSettings {
  /** How long a claimed run stays its owner's without a heartbeat. */
  leaseMs: number;
  /** How often a running run extends its lease (well under `leaseMs`). */
  heartbeatMs: number;
  /** How often a replica deletes a job's old runs. */
  pruneEveryMs: number;
}

/** What one run of a job ended as; `period` null for a replica-scoped job (not recorded). */
export interface RunResult {
  period: string | null;
  outcome: RunOutcome;
}

const HOUR_MS = 3_600_000;

/** How long a job's runs are kept: an hour, or 100 periods for a job due less often. */
export function keepRunsMs(intervalMs: number): number {
  return Math.max(HOUR_MS, 100 * intervalMs);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The period a scheduled run at `now` belongs to. */
export function periodAt(now: Date, intervalMs: number): bigint {
  return BigInt(Math.floor(now.getTime() / intervalMs));
}

/**
 * One periodic job on this replica (jobs/job-scheduler.ts creates it). Every `intervalMs` it
 * claims the job's current period in `job_runs` (or takes over a run whose owner stopped) and,
 * if it won the claim, runs the work, extending its lease while the work lasts, then records the
 * outcome. Never two runs of one replica at once (a tick finding the last run going is
 * skipped); the timer never keeps the process alive; a failed run is logged (a database outage
 * as a warning), the next period trying again. The work answering null means the job's lock
 * was held by another run (outcome `skipped`).
 */
export class ScheduledJob {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  /** runSoon found a run going: run again once it ends. */
  private again = false;
  private lastPruneAt = 0;
  private readonly counts = { ok: 0, failed: 0, skipped: 0 };
  private lastDurationSeconds: number | null = null;
  /** This replica's last success (for a replica-scoped job, which records no runs). */
  private lastLocalSuccessAt: Date | null = null;

  constructor(
    readonly definition: JobDefinition,
    readonly intervalMs: number,
    private readonly work: () => Promise<unknown>,
    private readonly runs: Pick<
      JobRunsRepository,
      'claim' | 'start' | 'heartbeat' | 'finish' | 'prune' | 'lastSuccesses'
    >,
    /** The schedule's clock: the system's (job-scheduler.ts, SCHEDULE_CLOCK). */
    private readonly clock: Clock,
    /** This replica's name in `job_runs.owner`. */
    private readonly owner: string,
    private readonly lease: LeaseSettings,
    private readonly logger: JobLogger,
  ) {}

  get name(): string {
    return this.definition.name;
  }

  get started(): boolean {
    return this.timer !== null;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.again = false;
  }

  /** The scheduled run of the current period, unless this replica is running one already. */
  tick(): Promise<RunResult | null> {
    return this.runWith((now) =>
      this.runs.claim(this.name, periodAt(now, this.intervalMs), this.owner, this.lease.leaseMs),
    );
  }

  /**
   * A run now, out of schedule (after a new withdrawal; the test clock moving), under a key of
   * its own, unless this replica is running one already.
   */
  runNow(): Promise<RunResult | null> {
    return this.runWith((now) =>
      this.runs.start(this.name, -BigInt(now.getTime()), this.owner, this.lease.leaseMs),
    );
  }

  /** `runNow`, or right after the run going (which may have read the time before it moved). */
  runSoon(): void {
    if (this.running) this.again = true;
    else void this.runNow();
  }

  /** This replica's counters; `lastSuccessAt` is the caller's to fill for a cluster job. */
  stats(lastSuccessAt: Date | null): JobStats {
    return {
      name: this.name,
      intervalMs: this.intervalMs,
      runs: { ok: this.counts.ok, failed: this.counts.failed },
      skipped: this.counts.skipped,
      lastDurationSeconds: this.lastDurationSeconds,
      lastSuccessAt: this.definition.scope === 'replica' ? this.lastLocalSuccessAt : lastSuccessAt,
    };
  }

  private async runWith(
    claim: (now: Date) => Promise<ClaimedRun | null>,
  ): Promise<RunResult | null> {
    if (this.running) return null;
    this.running = true;
    try {
      const run = this.definition.scope === 'cluster' ? await claim(this.clock.now()) : null;
      if (this.definition.scope === 'cluster' && !run) {
        this.counts.skipped += 1;
        return null;
      }
      const outcome = await this.execute(run);
      await this.pruneNow();
      return { period: run?.period ?? null, outcome };
    } catch (error) {
      // The claim, the record or the pruning failed: nothing ran, or the lease will expire and
      // another replica finishes the run.
      this.report(error, `${this.name}: recording the run failed`);
      return null;
    } finally {
      this.running = false;
      if (this.again && this.timer) {
        this.again = false;
        void this.runNow();
      }
    }
  }

  /** Runs the work of a claimed run (heartbeats while it lasts) and records how it ended. */
  private async execute(run: ClaimedRun | null): Promise<RunOutcome> {
    const heartbeat = run
      ? setInterval(() => void this.beat(run), this.lease.heartbeatMs).unref()
      : null;
    const startedAt = performance.now();
    let outcome: RunOutcome;
    let failure: unknown = null;
    try {
      outcome = (await this.work()) === null ? 'skipped' : 'ok';
    } catch (error) {
      outcome = 'failed';
      failure = error;
    } finally {
      if (heartbeat) clearInterval(heartbeat);
    }
    this.lastDurationSeconds = (performance.now() - startedAt) / 1000;
    this.counts[outcome] += 1;
    if (outcome === 'ok') this.lastLocalSuccessAt = new Date();
    if (outcome === 'failed') await this.reportFailure(failure);
    const message = failure === null ? null : errorMessage(failure);
    if (run && !(await this.runs.finish(run, this.owner, outcome, message))) {
      this.logger.warn(
        { job: this.name, period: run.period },
        `${this.name}: the run outlived its lease and was taken over`,
      );
    }
    return outcome;
  }

  /** A failed run's log line carries the job's last success, so an operator sees how stale. */
  private async reportFailure(error: unknown): Promise<void> {
    let lastSuccessAt = this.lastLocalSuccessAt;
    if (this.definition.scope === 'cluster') {
      lastSuccessAt = await this.runs
        .lastSuccesses([this.name])
        .then((last) => last.get(this.name) ?? null)
        .catch(() => null);
    }
    this.report(error, `${this.name} failed`, { lastSuccessAt });
  }

  private async beat(run: ClaimedRun): Promise<void> {
    try {
      if (!(await this.runs.heartbeat(run, this.owner, this.lease.leaseMs))) {
        this.logger.warn({ job: this.name, period: run.period }, `${this.name}: lease lost`);
      }
    } catch (error) {
      this.report(error, `${this.name}: heartbeat failed`);
    }
  }

  private async pruneNow(): Promise<void> {
    if (this.definition.scope !== 'cluster') return;
    const now = Date.now();
    if (now - this.lastPruneAt < this.lease.pruneEveryMs) return;
    this.lastPruneAt = now;
    await this.runs.prune(this.name, keepRunsMs(this.intervalMs));
  }

  /** A database outage is not a bug: a warning, and the next run catches up. */
  private report(error: unknown, message: string, fields: Record<string, unknown> = {}): void {
    if (isDatabaseUnavailable(error)) {
      this.logger.warn(
        { job: this.name, ...fields, err: { message: errorMessage(error) } },
        `${message}: database unavailable`,
      );
    } else {
      this.logger.error({ job: this.name, ...fields, err: error }, message);
    }
  }
}
