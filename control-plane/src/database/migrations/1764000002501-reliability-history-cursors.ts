import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where each server's reliability history is written up to moves from `servers.history_until`
 * to a table of its own (ServerHistoryCursorEntity says why: a minute's write to every server
 * row would make every agent report's versioned write miss once a minute).
 */
export class ReliabilityHistoryCursors1764000002501 implements MigrationInterface {
  name = 'ReliabilityHistoryCursors1764000002501';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "server_history_cursors" ("server_id" uuid NOT NULL, "history_until" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_server_history_cursors" PRIMARY KEY ("server_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "server_history_cursors" ADD CONSTRAINT "fk_server_history_cursors_server" FOREIGN KEY ("server_id") REFERENCES "servers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `INSERT INTO "server_history_cursors" ("server_id", "history_until") SELECT "id", "history_until" FROM "servers" WHERE "history_until" IS NOT NULL`,
    );
    await queryRunner.query(`ALTER TABLE "servers" DROP COLUMN "history_until"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "servers" ADD "history_until" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `UPDATE "servers" AS s SET "history_until" = c."history_until" FROM "server_history_cursors" c WHERE c."server_id" = s."id"`,
    );
    await queryRunner.query(
      `ALTER TABLE "server_history_cursors" DROP CONSTRAINT "fk_server_history_cursors_server"`,
    );
    await queryRunner.query(`DROP TABLE "server_history_cursors"`);
  }
}
