import type { MigrationInterface, QueryRunner } from 'typeorm';
import { sqlFunction } from '../sql-functions';

/**
 * Rate limits become sliding windows. A fixed window admits its limit at the end of
 * one window and again at the start of the next: twice the limit within one window's length.
 * A bucket now keeps the instants of the requests it admitted within its window, and a request
 * is admitted only if every bucket it counts against holds fewer than its limit.
 *
 * `rate_limit_take()` does the whole check in one statement, so replicas racing on one bucket
 * cannot both take its last slot: it locks each bucket's row (creating it if need be) in
 * bucket order, so overlapping calls never deadlock; then either refuses, naming every bucket
 * that is full and when its oldest counted request leaves the window, or records the request in
 * all of them. A refused request is recorded nowhere: an attacker limited on one bucket cannot
 * keep filling another (the e-mail-wide one of an account they cannot sign in to).
 *
 * The counts of the old fixed windows are dropped: at worst a caller gets one fresh window.
 */
export class SlidingRateLimits1764000001100 implements MigrationInterface {
  name = 'SlidingRateLimits1764000001100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "rate_limit_hits"`);
    await queryRunner.query(
      `CREATE TABLE "rate_limit_buckets" ("bucket" character varying(300) NOT NULL, "hits" TIMESTAMP WITH TIME ZONE array NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_rate_limit_buckets" PRIMARY KEY ("bucket"))`,
    );
    await queryRunner.query(sqlFunction('rate_limit_take'));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION rate_limit_take(text[], int[], bigint[], timestamptz)`);
    await queryRunner.query(`DROP TABLE "rate_limit_buckets"`);
    await queryRunner.query(
      `CREATE TABLE "rate_limit_hits" ("bucket" character varying(300) NOT NULL, "window_start" TIMESTAMP WITH TIME ZONE NOT NULL, "hits" integer NOT NULL, CONSTRAINT "PK_7ad2d424313141f04f747c1f6b1" PRIMARY KEY ("bucket", "window_start"))`,
    );
  }
}
