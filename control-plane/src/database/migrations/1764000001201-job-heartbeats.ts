import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The withdrawal job's heartbeat: after an outage of the control plane every
 * server looks silent, so a hidden server is dropped only after an hour the job itself watched.
 */
export class JobHeartbeats1764000001201 implements MigrationInterface {
  name = 'JobHeartbeats1764000001201';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "job_heartbeats" ("job" character varying(40) NOT NULL, "last_run_at" TIMESTAMP WITH TIME ZONE NOT NULL, "watching_since" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_job_heartbeats" PRIMARY KEY ("job"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "job_heartbeats"`);
  }
}
