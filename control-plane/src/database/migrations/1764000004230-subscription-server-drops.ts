import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A server that cannot serve leaving a subscription is a "server drop", kept apart from an
 * operator's withdrawal (a SOL payout, withdrawals/): the table subscription_withdrawals becomes
 * subscription_server_drops, its withdrawn_at dropped_at, and the drop job's heartbeat row follows
 * the job's new name, so the hour of grace it measures does not start again on upgrade.
 */
export class SubscriptionServerDrops1764000004230 implements MigrationInterface {
  name = 'SubscriptionServerDrops1764000004230';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "subscription_withdrawals" RENAME TO "subscription_server_drops"`,
    );
    await queryRunner.query(
      `ALTER TABLE "subscription_server_drops" RENAME COLUMN "withdrawn_at" TO "dropped_at"`,
    );
    for (const [from, to] of CONSTRAINTS) {
      await queryRunner.query(
        `ALTER TABLE "subscription_server_drops" RENAME CONSTRAINT "${from}" TO "${to}"`,
      );
    }
    await queryRunner.query(
      `ALTER INDEX "uq_subscription_withdrawals_period" RENAME TO "uq_subscription_server_drops_period"`,
    );
    await queryRunner.query(
      `UPDATE "job_heartbeats" SET "job" = 'server-drop' WHERE "job" = 'server-withdrawal'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE "job_heartbeats" SET "job" = 'server-withdrawal' WHERE "job" = 'server-drop'`,
    );
    await queryRunner.query(
      `ALTER INDEX "uq_subscription_server_drops_period" RENAME TO "uq_subscription_withdrawals_period"`,
    );
    for (const [from, to] of CONSTRAINTS) {
      await queryRunner.query(
        `ALTER TABLE "subscription_server_drops" RENAME CONSTRAINT "${to}" TO "${from}"`,
      );
    }
    await queryRunner.query(
      `ALTER TABLE "subscription_server_drops" RENAME COLUMN "dropped_at" TO "withdrawn_at"`,
    );
    await queryRunner.query(
      `ALTER TABLE "subscription_server_drops" RENAME TO "subscription_withdrawals"`,
    );
  }
}

/** The table's constraints, old name to new. */
const CONSTRAINTS: ReadonlyArray<readonly [string, string]> = [
  ['PK_20e3ee196f8c6b84b1d2c9e3a14', 'pk_subscription_server_drops'],
  ['ck_subscription_withdrawals_reason', 'ck_subscription_server_drops_reason'],
  ['ck_subscription_withdrawals_refund', 'ck_subscription_server_drops_refund'],
  ['fk_subscription_withdrawals_subscription', 'fk_subscription_server_drops_subscription'],
];
