import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Servers dropped from subscriptions because they can no longer serve (hidden below
 * 95%, banned or deleted), with the refund of the client's unused paid time; unique per
 * subscription, server and paid period, so the refund happens once.
 */
export class SubscriptionWithdrawals1764000001200 implements MigrationInterface {
  name = 'SubscriptionWithdrawals1764000001200';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "subscription_withdrawals" ("id" uuid NOT NULL, "subscription_id" uuid NOT NULL, "server_id" uuid NOT NULL, "server_name" character varying(100) NOT NULL, "period_index" integer NOT NULL, "reason" character varying(8) NOT NULL, "unable_since" TIMESTAMP WITH TIME ZONE NOT NULL, "withdrawn_at" TIMESTAMP WITH TIME ZONE NOT NULL, "refund_micro" bigint NOT NULL, CONSTRAINT "ck_subscription_withdrawals_refund" CHECK ("refund_micro" >= 0), CONSTRAINT "ck_subscription_withdrawals_reason" CHECK ("reason" IN ('hidden', 'banned', 'deleted')), CONSTRAINT "PK_20e3ee196f8c6b84b1d2c9e3a14" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_subscription_withdrawals_period" ON "subscription_withdrawals" ("subscription_id", "server_id", "period_index") `,
    );
    await queryRunner.query(
      `ALTER TABLE "subscription_withdrawals" ADD CONSTRAINT "fk_subscription_withdrawals_subscription" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "subscription_withdrawals" DROP CONSTRAINT "fk_subscription_withdrawals_subscription"`,
    );
    await queryRunner.query(`DROP INDEX "public"."uq_subscription_withdrawals_period"`);
    await queryRunner.query(`DROP TABLE "subscription_withdrawals"`);
  }
}
