import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * When a minute job last ran, and since when it has run without a gap: a long
 * gap means the control plane or its database was down, and every server looked silent
 * meanwhile through no fault of its own.
 */
@Entity({ name: 'job_heartbeats' })
export class JobHeartbeatEntity {
  @PrimaryColumn({ type: 'varchar', length: 40, primaryKeyConstraintName: 'PK_job_heartbeats' })
  job: string;

  @Column({ name: 'last_run_at', type: 'timestamptz' })
  lastRunAt: Date;

  /** The first run after the last gap: the job has been watching since then. */
  @Column({ name: 'watching_since', type: 'timestamptz' })
  watchingSince: Date;
}
