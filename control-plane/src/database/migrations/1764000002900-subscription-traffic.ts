import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Traffic users can see: bytes per subscription, server and UTC day, added from
 * the per-client counters of agent reports. Only byte counts: no destination, address or time
 * finer than the day (the no-logs policy). No foreign keys: the report writer adds to these rows
 * on its hot path, and a deleted server's days still count in its subscriptions' totals. Pruned
 * after TRAFFIC_RETENTION_DAYS (traffic/traffic.repository.ts).
 */
export class SubscriptionTraffic1764000002900 implements MigrationInterface {
  name = 'SubscriptionTraffic1764000002900';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "subscription_traffic_days" ("subscription_id" uuid NOT NULL, "server_id" uuid NOT NULL, "day" date NOT NULL, "upload_bytes" bigint NOT NULL DEFAULT '0', "download_bytes" bigint NOT NULL DEFAULT '0', CONSTRAINT "ck_subscription_traffic_days_bytes" CHECK ("upload_bytes" >= 0 AND "download_bytes" >= 0), CONSTRAINT "PK_subscription_traffic_days" PRIMARY KEY ("subscription_id", "server_id", "day"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_subscription_traffic_days_server" ON "subscription_traffic_days" ("server_id", "day") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "subscription_traffic_days"`);
  }
}
