import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';

/** A run this replica holds: its job, period (bigint as a string) and how often it was taken over. */
export interface ClaimedRun {
  job: string;
  period: string;
  takeovers: number;
}

export type RunOutcome = 'ok' | 'failed' | 'skipped';

/** Errors are kept to this many characters in `job_runs.error`. */
const ERROR_CHARS = 2000;

/**
 * The record of job runs (`job_runs`, jobs/entities/job-run.entity.ts). Leases and timestamps
 * are the database's time (`clock_timestamp()`), so replicas whose clocks differ agree on
 * whose lease has expired; the period key is computed by the caller from the injected clock.
 */
@Injectable()
export class JobRunsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Claims a run for `owner`: the job's oldest run whose owner stopped (unfinished, lease
   * expired) if there is one, taken over; else `period`, unless another replica claimed it.
   * One statement, so concurrent claims cannot both win: the takeover locks the abandoned row
   * (SKIP LOCKED: a replica taking it over already is passed by), and the insert meets the
   * primary key. null: nothing to run.
   */
  async claim(
    job: string,
    period: bigint,
    owner: string,
    leaseMs: number,
  ): Promise<ClaimedRun | null> {
    const [row] = await queryRows<ClaimedRun>(
      this.dataSource,
      `WITH abandoned AS (
         SELECT period FROM job_runs
         WHERE job = $1 AND finished_at IS NULL AND lease_until <= clock_timestamp()
         ORDER BY period LIMIT 1
         FOR UPDATE SKIP LOCKED
       ), taken AS (
         UPDATE job_runs r
         SET owner = $3, started_at = clock_timestamp(),
             lease_until = clock_timestamp() + $4 * interval '1 millisecond',
             takeovers = r.takeovers + 1
         FROM abandoned a
         WHERE r.job = $1 AND r.period = a.period
         RETURNING r.job, r.period::text AS period, r.takeovers
       ), inserted AS (
         INSERT INTO job_runs (job, period, owner, started_at, lease_until)
         SELECT $1, $2, $3, clock_timestamp(), clock_timestamp() + $4 * interval '1 millisecond'
         WHERE NOT EXISTS (SELECT 1 FROM taken)
         ON CONFLICT (job, period) DO NOTHING
         RETURNING job, period::text AS period, takeovers
       )
       SELECT * FROM taken UNION ALL SELECT * FROM inserted`,
      [job, period.toString(), owner, leaseMs],
    );
    return row ?? null;
  }

  /**
   * Starts a run out of schedule (a kick, or the test clock moving) under its own key; no
   * takeover. null: the key is taken (the same job kicked twice in one millisecond).
   */
  async start(
    job: string,
    period: bigint,
    owner: string,
    leaseMs: number,
  ): Promise<ClaimedRun | null> {
    const [row] = await queryRows<ClaimedRun>(
      this.dataSource,
      `INSERT INTO job_runs (job, period, owner, started_at, lease_until)
       VALUES ($1, $2, $3, clock_timestamp(), clock_timestamp() + $4 * interval '1 millisecond')
       ON CONFLICT (job, period) DO NOTHING
       RETURNING job, period::text AS period, takeovers`,
      [job, period.toString(), owner, leaseMs],
    );
    return row ?? null;
  }

  /** Extends the lease of a run `owner` still holds; false when it was taken over meanwhile. */
  async heartbeat(run: ClaimedRun, owner: string, leaseMs: number): Promise<boolean> {
    const rows = await queryRows<{ job: string }>(
      this.dataSource,
      `UPDATE job_runs SET lease_until = clock_timestamp() + $4 * interval '1 millisecond'
       WHERE job = $1 AND period = $2 AND owner = $3 AND finished_at IS NULL
       RETURNING job`,
      [run.job, run.period, owner, leaseMs],
    );
    return rows.length > 0;
  }

  /** Records the end of a run `owner` still holds; false when it was taken over meanwhile. */
  async finish(
    run: ClaimedRun,
    owner: string,
    outcome: RunOutcome,
    error: string | null,
  ): Promise<boolean> {
    const rows = await queryRows<{ job: string }>(
      this.dataSource,
      `UPDATE job_runs
       SET finished_at = clock_timestamp(), outcome = $4, error = $5,
           duration_ms = LEAST(2147483647, (extract(epoch FROM clock_timestamp() - started_at) * 1000)::bigint)
       WHERE job = $1 AND period = $2 AND owner = $3 AND finished_at IS NULL
       RETURNING job`,
      [run.job, run.period, owner, outcome, error?.slice(0, ERROR_CHARS) ?? null],
    );
    return rows.length > 0;
  }

  /**
   * Deletes a job's runs started more than `keepMs` ago, but never its last success (the
   * metrics read it). Answers how many went.
   */
  async prune(job: string, keepMs: number): Promise<number> {
    const rows = await queryRows<{ job: string }>(
      this.dataSource,
      `DELETE FROM job_runs
       WHERE job = $1 AND started_at < clock_timestamp() - $2 * interval '1 millisecond'
         AND period IS DISTINCT FROM (
           SELECT period FROM job_runs
           WHERE job = $1 AND outcome = 'ok'
           ORDER BY finished_at DESC LIMIT 1
         )
       RETURNING job`,
      [job, keepMs],
    );
    return rows.length;
  }

  /** The last successful run of each job, by any replica. */
  async lastSuccesses(jobs: readonly string[]): Promise<Map<string, Date>> {
    const rows = await queryRows<{ job: string; at: Date }>(
      this.dataSource,
      `SELECT j.job, last.at
       FROM unnest($1::varchar[]) AS j(job)
       CROSS JOIN LATERAL (
         SELECT finished_at AS at FROM job_runs
         WHERE job = j.job AND outcome = 'ok'
         ORDER BY finished_at DESC LIMIT 1
       ) last`,
      [jobs],
    );
    return new Map(rows.map((row) => [row.job, row.at]));
  }
}
