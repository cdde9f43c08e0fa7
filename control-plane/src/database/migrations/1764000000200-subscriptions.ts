import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Subscriptions: a client's subscription with its own VLESS uuid, the servers it
 * covers, and the pauses its allowance counts.
 */
export class Subscriptions1764000000200 implements MigrationInterface {
  name = 'Subscriptions1764000000200';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "subscriptions" ("id" uuid NOT NULL, "owner_uuid" uuid NOT NULL, "vless_uuid" uuid NOT NULL, "status" character varying(10) NOT NULL, "billing_cycle" character varying(8) NOT NULL, "auto_renew" boolean NOT NULL DEFAULT true, "period_index" integer NOT NULL DEFAULT '1', "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "paused_at" TIMESTAMP WITH TIME ZONE, "pause_ends_at" TIMESTAMP WITH TIME ZONE, "pause_reason" character varying(24), "url_token_hash" character(64), "url_token_sealed" character varying(200), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "deleted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "ck_subscriptions_pause" CHECK (("status" = 'paused') = ("paused_at" IS NOT NULL AND "pause_reason" IS NOT NULL)), CONSTRAINT "ck_subscriptions_billing_cycle" CHECK ("billing_cycle" IN ('monthly', 'hourly')), CONSTRAINT "ck_subscriptions_status" CHECK ("status" IN ('active', 'paused', 'expired', 'deleted')), CONSTRAINT "PK_a87248d73155605cf782be9ee5e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_subscriptions_vless_uuid" ON "subscriptions" ("vless_uuid") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_subscriptions_url_token_hash" ON "subscriptions" ("url_token_hash") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_subscriptions_pause_due" ON "subscriptions" ("pause_ends_at") WHERE "status" = 'paused' AND "pause_ends_at" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_subscriptions_due" ON "subscriptions" ("expires_at") WHERE "status" = 'active'`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_subscriptions_owner" ON "subscriptions" ("owner_uuid", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "subscription_pauses" ("id" uuid NOT NULL, "subscription_id" uuid NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "ends_at" TIMESTAMP WITH TIME ZONE NOT NULL, "resumed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_a0e990d760831f849bbf5db66b7" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_subscription_pauses_subscription" ON "subscription_pauses" ("subscription_id", "started_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "subscription_servers" ("subscription_id" uuid NOT NULL, "server_id" uuid NOT NULL, "position" smallint NOT NULL, CONSTRAINT "PK_be0a11b615ad665f27d376b63ac" PRIMARY KEY ("subscription_id", "server_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_subscription_servers_server" ON "subscription_servers" ("server_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "subscriptions" ADD CONSTRAINT "fk_subscriptions_owner" FOREIGN KEY ("owner_uuid") REFERENCES "accounts"("uuid") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "subscription_pauses" ADD CONSTRAINT "fk_subscription_pauses_subscription" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "subscription_servers" ADD CONSTRAINT "fk_subscription_servers_subscription" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "subscription_servers" ADD CONSTRAINT "fk_subscription_servers_server" FOREIGN KEY ("server_id") REFERENCES "servers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "subscription_servers" DROP CONSTRAINT "fk_subscription_servers_server"`,
    );
    await queryRunner.query(
      `ALTER TABLE "subscription_servers" DROP CONSTRAINT "fk_subscription_servers_subscription"`,
    );
    await queryRunner.query(
      `ALTER TABLE "subscription_pauses" DROP CONSTRAINT "fk_subscription_pauses_subscription"`,
    );
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP CONSTRAINT "fk_subscriptions_owner"`);
    await queryRunner.query(`DROP INDEX "public"."ix_subscription_servers_server"`);
    await queryRunner.query(`DROP TABLE "subscription_servers"`);
    await queryRunner.query(`DROP INDEX "public"."ix_subscription_pauses_subscription"`);
    await queryRunner.query(`DROP TABLE "subscription_pauses"`);
    await queryRunner.query(`DROP INDEX "public"."ix_subscriptions_owner"`);
    await queryRunner.query(`DROP INDEX "public"."ix_subscriptions_due"`);
    await queryRunner.query(`DROP INDEX "public"."ix_subscriptions_pause_due"`);
    await queryRunner.query(`DROP INDEX "public"."uq_subscriptions_url_token_hash"`);
    await queryRunner.query(`DROP INDEX "public"."uq_subscriptions_vless_uuid"`);
    await queryRunner.query(`DROP TABLE "subscriptions"`);
  }
}
