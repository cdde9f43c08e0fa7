import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where each server's reliability history is written up to, and its current day, move from
 * `servers.history_until` to a table of their own (ServerHistoryCursorEntity says why: a minute's
 * write to every server row would make every agent report's versioned write miss once a minute;
 * and a day row rewritten every minute would bloat the day table). Half-empty pages
 * (fillfactor 50): the minute's update of a cursor stays on its page (a HOT update).
 */
export class ReliabilityHistoryCursors1764000002501 implements MigrationInterface {
  name = 'ReliabilityHistoryCursors1764000002501';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "server_history_cursors" ("server_id" uuid NOT NULL, "history_until" TIMESTAMP WITH TIME ZONE NOT NULL, "owner_uuid" uuid NOT NULL, "tier" character varying(8), "pending_day" date, "pending_observed_seconds" integer NOT NULL DEFAULT '0', "pending_reliability_seconds" bigint NOT NULL DEFAULT '0', "pending_below_seconds" integer NOT NULL DEFAULT '0', "pending_stale_seconds" integer NOT NULL DEFAULT '0', "pending_min_reliability" smallint NOT NULL DEFAULT '100', CONSTRAINT "PK_server_history_cursors" PRIMARY KEY ("server_id")) WITH (fillfactor = 50)`,
    );
    await queryRunner.query(
      `INSERT INTO "server_history_cursors" ("server_id", "history_until", "owner_uuid", "tier") SELECT "id", "history_until", "owner_uuid", "tier" FROM "servers" WHERE "history_until" IS NOT NULL`,
    );
    await queryRunner.query(`ALTER TABLE "servers" DROP COLUMN "history_until"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "servers" ADD "history_until" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `UPDATE "servers" AS s SET "history_until" = c."history_until" FROM "server_history_cursors" c WHERE c."server_id" = s."id"`,
    );
    // The pending days go to the day rows first: reverting loses no fact.
    await queryRunner.query(
      `INSERT INTO "server_reliability_days" AS t ("server_id", "day", "owner_uuid", "tier", "observed_seconds", "reliability_seconds", "below_seconds", "stale_seconds", "min_reliability") SELECT "server_id", "pending_day", "owner_uuid", "tier", "pending_observed_seconds", "pending_reliability_seconds", "pending_below_seconds", "pending_stale_seconds", "pending_min_reliability" FROM "server_history_cursors" WHERE "pending_day" IS NOT NULL ON CONFLICT ("server_id", "day") DO UPDATE SET "observed_seconds" = t."observed_seconds" + excluded."observed_seconds", "reliability_seconds" = t."reliability_seconds" + excluded."reliability_seconds", "below_seconds" = t."below_seconds" + excluded."below_seconds", "stale_seconds" = t."stale_seconds" + excluded."stale_seconds", "min_reliability" = LEAST(t."min_reliability", excluded."min_reliability")`,
    );
    await queryRunner.query(`DROP TABLE "server_history_cursors"`);
  }
}
