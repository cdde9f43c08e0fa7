import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Operator servers, one-time enrollment tokens, and the client UUIDs allowed on each server. */
export class Nodes1763900000000 implements MigrationInterface {
  name = 'Nodes1763900000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "enrollment_tokens" ("id" uuid NOT NULL, "token_hash" character(64) NOT NULL, "owner_uuid" uuid NOT NULL, "tier" character varying(8) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "server_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_d9b043a74d8643fde7e6b948591" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_enrollment_tokens_hash" ON "enrollment_tokens" ("token_hash")`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_enrollment_tokens_owner" ON "enrollment_tokens" ("owner_uuid")`,
    );
    await queryRunner.query(
      `CREATE TABLE "servers" ("id" uuid NOT NULL, "owner_uuid" uuid NOT NULL, "name" character varying(100) NOT NULL, "source" character varying(10) NOT NULL, "tier" character varying(8), "secret_hash" character(64), "host" character varying(253), "port" integer, "inbound" jsonb NOT NULL, "vless_string" text, "hardware" jsonb, "agent_version" character varying(32), "core_state" character varying(16), "active_clients" integer NOT NULL DEFAULT '0', "ping_ms" integer, "uptime_seconds" bigint NOT NULL DEFAULT '0', "reliability_at_report" smallint NOT NULL DEFAULT '100', "last_report_at" TIMESTAMP WITH TIME ZONE, "last_credited_at" TIMESTAMP WITH TIME ZONE, "below_threshold_since" TIMESTAMP WITH TIME ZONE, "banned_at" TIMESTAMP WITH TIME ZONE, "client_set_version" bigint NOT NULL DEFAULT '0', "applied_client_set_version" bigint NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "ck_servers_source" CHECK ("source" IN ('agent', 'manual')), CONSTRAINT "PK_c0947efd9f3db2dcc010164d20b" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_servers_owner" ON "servers" ("owner_uuid")`);
    await queryRunner.query(
      `CREATE TABLE "server_clients" ("server_id" uuid NOT NULL, "client_uuid" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_7c1a1a1855d4df8eedaecdcb6f5" PRIMARY KEY ("server_id", "client_uuid"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "enrollment_tokens" ADD CONSTRAINT "fk_enrollment_tokens_owner" FOREIGN KEY ("owner_uuid") REFERENCES "accounts"("uuid") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "servers" ADD CONSTRAINT "fk_servers_owner" FOREIGN KEY ("owner_uuid") REFERENCES "accounts"("uuid") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "server_clients" ADD CONSTRAINT "fk_server_clients_server" FOREIGN KEY ("server_id") REFERENCES "servers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "server_clients" DROP CONSTRAINT "fk_server_clients_server"`,
    );
    await queryRunner.query(`ALTER TABLE "servers" DROP CONSTRAINT "fk_servers_owner"`);
    await queryRunner.query(
      `ALTER TABLE "enrollment_tokens" DROP CONSTRAINT "fk_enrollment_tokens_owner"`,
    );
    await queryRunner.query(`DROP TABLE "server_clients"`);
    await queryRunner.query(`DROP INDEX "public"."ix_servers_owner"`);
    await queryRunner.query(`DROP TABLE "servers"`);
    await queryRunner.query(`DROP INDEX "public"."ix_enrollment_tokens_owner"`);
    await queryRunner.query(`DROP INDEX "public"."uq_enrollment_tokens_hash"`);
    await queryRunner.query(`DROP TABLE "enrollment_tokens"`);
  }
}
