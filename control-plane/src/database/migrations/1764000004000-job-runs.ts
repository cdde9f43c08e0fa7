import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The record of periodic job runs (jobs/job-scheduler.ts): one row per job and period, claimed by
 * one replica, leased while it runs, taken over when its owner stops, finished with an outcome.
 */
export class JobRuns1764000004000 implements MigrationInterface {
  name = 'JobRuns1764000004000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "job_runs" ("job" character varying(40) NOT NULL, "period" bigint NOT NULL, "owner" character varying(100) NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "lease_until" TIMESTAMP WITH TIME ZONE NOT NULL, "finished_at" TIMESTAMP WITH TIME ZONE, "outcome" character varying(8), "error" text, "duration_ms" integer, "takeovers" smallint NOT NULL DEFAULT '0', CONSTRAINT "ck_job_runs_outcome" CHECK ("outcome" IN ('ok', 'failed', 'skipped')), CONSTRAINT "PK_job_runs" PRIMARY KEY ("job", "period"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_job_runs_outcome" ON "job_runs" ("job", "outcome", "finished_at")`,
    );
    await queryRunner.query(`CREATE INDEX "ix_job_runs_started" ON "job_runs" ("started_at")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "job_runs"`);
  }
}
