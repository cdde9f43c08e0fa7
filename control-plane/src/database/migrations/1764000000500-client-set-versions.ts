import type { MigrationInterface, QueryRunner } from 'typeorm';
import { sqlFunction } from '../sql-functions';

/**
 * A server's client-set version moves to a row of its own, `server_client_sets`, created with
 * the server by a trigger. Purchases, pauses and the billing job lock and bump that narrow row
 * instead of the `servers` row that agent report batches write, so neither waits for the other
 * (a report batch holds hundreds of server rows until it commits), a purchase no longer writes
 * a new version of the wide server row, and it no longer invalidates the report path's
 * remembered row version.
 */
export class ClientSetVersions1764000000500 implements MigrationInterface {
  name = 'ClientSetVersions1764000000500';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "server_client_sets" ("server_id" uuid NOT NULL, "version" bigint NOT NULL DEFAULT '0', CONSTRAINT "PK_e0c67791f9902ab9137db920d07" PRIMARY KEY ("server_id"))`,
    );
    await queryRunner.query(
      `INSERT INTO "server_client_sets" ("server_id", "version") SELECT "id", "client_set_version" FROM "servers"`,
    );
    await queryRunner.query(`ALTER TABLE "servers" DROP COLUMN "client_set_version"`);
    await queryRunner.query(
      `ALTER TABLE "server_client_sets" ADD CONSTRAINT "fk_server_client_sets_server" FOREIGN KEY ("server_id") REFERENCES "servers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(sqlFunction('server_client_sets_created'));
    await queryRunner.query(
      `CREATE TRIGGER server_client_sets_created AFTER INSERT ON servers REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION server_client_sets_created()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER server_client_sets_created ON servers`);
    await queryRunner.query(`DROP FUNCTION server_client_sets_created()`);
    await queryRunner.query(
      `ALTER TABLE "server_client_sets" DROP CONSTRAINT "fk_server_client_sets_server"`,
    );
    await queryRunner.query(
      `ALTER TABLE "servers" ADD "client_set_version" bigint NOT NULL DEFAULT '0'`,
    );
    await queryRunner.query(
      `UPDATE "servers" s SET "client_set_version" = c."version" FROM "server_client_sets" c WHERE c."server_id" = s."id"`,
    );
    await queryRunner.query(`DROP TABLE "server_client_sets"`);
  }
}
