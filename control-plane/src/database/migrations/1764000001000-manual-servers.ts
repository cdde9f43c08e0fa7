import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Servers added without the agent (Add New Server) are listed only once a VLESS
 * check through them has passed, and only as free servers (price 0, no operator reward: that
 * part lives in the pricing code, keyed on `source = 'manual'`).
 *
 * - `checked_at`, `check_error`: when the last check ran and why it failed (null: it passed),
 *   for the node dashboard.
 * - The manual servers that exist were listed at reliability 100 without any check: they go
 *   back to "never checked" (no report, reliability 0, not listed) until the next sweep's check
 *   passes. Their listings are rewritten here, because the market triggers only copy a score
 *   from a fresh report.
 */
export class ManualServers1764000001000 implements MigrationInterface {
  name = 'ManualServers1764000001000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "servers" ADD "checked_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "servers" ADD "check_error" character varying(200)`);
    await queryRunner.query(
      `UPDATE "servers" SET "last_report_at" = NULL, "last_credited_at" = NULL,
         "reliability_at_report" = 0, "below_threshold_since" = NULL, "ping_ms" = NULL
       WHERE "source" = 'manual'`,
    );
    await queryRunner.query(
      `UPDATE "market_listings" l SET "reliability" = 0, "stale" = true, "last_report_at" = NULL
       FROM "servers" s WHERE s."id" = l."server_id" AND s."source" = 'manual'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // The checks' outcome cannot be put back into the old "listed at 100" state: the next
    // probes score the servers again.
    await queryRunner.query(`ALTER TABLE "servers" DROP COLUMN "check_error"`);
    await queryRunner.query(`ALTER TABLE "servers" DROP COLUMN "checked_at"`);
  }
}
