import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable, Logger, type OnApplicationShutdown, Optional } from '@nestjs/common';
import { type Clock, systemClock } from '../common/clock';
import type { JobDefinition } from './job-registry';
import { JobRunsRepository } from './job-runs.repository';
import type { JobStats, JobStatsSource } from './job-stats';
import { type LeaseSettings, ScheduledJob } from './scheduled-job';

/** Nest token for other lease settings than the defaults (tests shorten them). */
export const LEASE_SETTINGS = Symbol('LEASE_SETTINGS');
/**
 * Nest token for the clock the periods are read from: the system's. Not the domain's CLOCK,
 * which tests freeze (a frozen clock would be one period forever, and the job would run once)
 * or move (the test clock runs every job at once on a move instead: runAllNow).
 */
export const SCHEDULE_CLOCK = Symbol('SCHEDULE_CLOCK');

/**
 * A run whose replica stops (crash, kill, lost network) is taken over 30 s after its last
 * heartbeat; heartbeats every 10 s leave room for two lost ones. Old runs are pruned every 10
 * minutes.
 */
export const DEFAULT_LEASE: LeaseSettings = {
  leaseMs: 30_000,
  heartbeatMs: 10_000,
  pruneEveryMs: 600_000,
};

/** This process's name among the replicas: host, pid and a random tail (pids repeat). */
function replicaName(): string {
  return `${hostname().slice(0, 60)}/${process.pid}/${randomBytes(4).toString('hex')}`;
}

/**
 * The one scaffold of the periodic jobs: each `*.job.ts` starts its job here at bootstrap with
 * its registry entry (jobs/job-registry.ts) and the service call it wraps. Runs once per period
 * across every replica, recorded in `job_runs` (ScheduledJob); gives the metrics each job's
 * counters and last success (JobStatsSource, as JOB_STATS).
 */
@Injectable()
export class JobScheduler implements JobStatsSource, OnApplicationShutdown {
  readonly owner = replicaName();
  private readonly jobs = new Map<string, ScheduledJob>();
  private readonly lease: LeaseSettings;

  constructor(
    private readonly runs: JobRunsRepository,
    @Optional() @Inject(LEASE_SETTINGS) lease?: Partial<LeaseSettings>,
    @Optional() @Inject(SCHEDULE_CLOCK) private readonly clock: Clock = systemClock,
  ) {
    this.lease = { ...DEFAULT_LEASE, ...lease };
  }

  /**
   * Starts a job on this replica (one started per name; a stopped one may start again);
   * `intervalMs` overrides the registry's when the
   * interval is a setting (REACHABILITY_JOB_INTERVAL_MS).
   */
  start(
    definition: JobDefinition,
    work: () => Promise<unknown>,
    options: { intervalMs?: number } = {},
  ): ScheduledJob {
    if (this.jobs.get(definition.name)?.started) {
      throw new Error(`Job ${definition.name} is already started on this replica`);
    }
    const job = new ScheduledJob(
      definition,
      options.intervalMs ?? definition.intervalMs,
      work,
      this.runs,
      this.clock,
      this.owner,
      this.lease,
      new Logger(`Job ${definition.name}`),
    );
    this.jobs.set(definition.name, job);
    job.start();
    return job;
  }

  /**
   * A run of a job started on this replica now, out of schedule (a new withdrawal's payout),
   * unless this replica is running one already; nothing when the job is not started here (not
   * configured, or stopped).
   */
  runNow(definition: JobDefinition): void {
    const job = this.jobs.get(definition.name);
    if (job?.started) void job.runNow();
  }

  /**
   * Runs every started job once now (a job in the middle of a run runs again right after it).
   * The test clock calls it when a test moves time (common/test-clock.ts, main.ts): time passed
   * for every job, so each does what its next tick would have done, without waiting (each such
   * run under a key of its own, so a move of less than an interval still runs the job).
   */
  runAllNow(): void {
    for (const job of this.jobs.values()) if (job.started) job.runSoon();
  }

  async jobStats(): Promise<JobStats[]> {
    const jobs = [...this.jobs.values()];
    const cluster = jobs.filter((job) => job.definition.scope === 'cluster').map((j) => j.name);
    const last = cluster.length > 0 ? await this.runs.lastSuccesses(cluster) : new Map();
    return jobs.map((job) => job.stats(last.get(job.name) ?? null));
  }

  onApplicationShutdown(): void {
    for (const job of this.jobs.values()) job.stop();
  }
}
