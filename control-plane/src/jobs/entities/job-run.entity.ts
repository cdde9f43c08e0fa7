import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One run of a periodic job (jobs/job-scheduler.ts): the replica that claimed the job's period
 * owns it while its lease lasts (heartbeats extend it); a run whose owner stopped heartbeating is
 * taken over by another replica and finished there. `period` is floor(clock time / interval) for
 * scheduled runs; a run out of schedule (a kick, or the test clock moving) is keyed by minus its
 * clock time in milliseconds, so it never meets a scheduled period.
 */
@Entity({ name: 'job_runs' })
@Check('ck_job_runs_outcome', `"outcome" IN ('ok', 'failed', 'skipped')`)
@Index('ix_job_runs_outcome', ['job', 'outcome', 'finishedAt'])
@Index('ix_job_runs_started', ['startedAt'])
export class JobRunEntity {
  @PrimaryColumn({ type: 'varchar', length: 40, primaryKeyConstraintName: 'PK_job_runs' })
  job: string;

  /** bigint: TypeORM hands it over as a string. */
  @PrimaryColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_job_runs' })
  period: string;

  /** The replica that runs it now (host/pid/random). */
  @Column({ type: 'varchar', length: 100 })
  owner: string;

  /** When its current owner started it (a takeover starts it again). */
  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt: Date;

  /** The owner's lease: past it, with no finish, another replica may take the run over. */
  @Column({ name: 'lease_until', type: 'timestamptz' })
  leaseUntil: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt: Date | null;

  /** ok; failed (error holds why); skipped (another run held the job's lock). */
  @Column({ type: 'varchar', length: 8, nullable: true })
  outcome: 'ok' | 'failed' | 'skipped' | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ name: 'duration_ms', type: 'integer', nullable: true })
  durationMs: number | null;

  /** How many times another replica took the run over from an owner that stopped. */
  @Column({ type: 'smallint', default: 0 })
  takeovers: number;
}
