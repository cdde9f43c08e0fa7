import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Node names (docs/operators.md#node-names-control-plane-for-publicly-trusted-certificates): each agent server gets a stable DNS label of its own
 * (`n` + 16 hex digits, random: nothing secret is derived from), under which the control plane's
 * DNS server publishes its address so its agent can obtain a publicly trusted certificate; and the
 * address the agent gave at enrollment, answered for the name until its first report.
 */
export class NodeHostNames1764000003600 implements MigrationInterface {
  name = 'NodeHostNames1764000003600';
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "servers" ADD "host_name" character varying(17), ADD "enrolled_host" character varying(253)`,
    );
    // Existing agent servers get theirs now (a collision of 64 random bits is not expected, and
    // the unique index below would stop the migration rather than share a name).
    await queryRunner.query(
      `UPDATE "servers" SET "host_name" = 'n' || substr(md5(random()::text || clock_timestamp()::text || "id"::text), 1, 16) WHERE "source" = 'agent'`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_servers_host_name" ON "servers" ("host_name") `,
    );
    await queryRunner.query(
      `ALTER TABLE "servers" ADD CONSTRAINT "ck_servers_host_name" CHECK ("host_name" ~ '^n[0-9a-f]{16}$')`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "servers" DROP CONSTRAINT "ck_servers_host_name"`);
    await queryRunner.query(`DROP INDEX "public"."uq_servers_host_name"`);
    await queryRunner.query(
      `ALTER TABLE "servers" DROP COLUMN "enrolled_host", DROP COLUMN "host_name"`,
    );
  }
}
