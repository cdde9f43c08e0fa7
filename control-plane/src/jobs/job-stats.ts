/**
 * What the job scaffold tells the metrics (`/metrics`) about each periodic job: this replica's
 * counters, and the cluster's last success read from the record of runs (any replica's).
 */
export interface JobStats {
  /** The job's registered name (jobs/job-registry.ts), e.g. "subscription-billing". */
  name: string;
  /** How often it is due, in milliseconds. */
  intervalMs: number;
  /** Runs this replica started since it booted, by outcome. */
  runs: { ok: number; failed: number };
  /** Periods this replica found already taken by another replica (or still leased). */
  skipped: number;
  /** The duration of this replica's last finished run, in seconds (null before the first). */
  lastDurationSeconds: number | null;
  /** The last successful run by any replica (null if none is recorded). */
  lastSuccessAt: Date | null;
}

/** Implemented by the job scaffold, read by the metrics on each scrape. */
export interface JobStatsSource {
  jobStats(): Promise<JobStats[]>;
}

/** Nest token under which the job scaffold provides its JobStatsSource. */
export const JOB_STATS = Symbol('JOB_STATS');
