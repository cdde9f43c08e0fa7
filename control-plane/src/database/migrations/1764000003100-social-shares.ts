import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Share-and-earn: one row per share with the server's reward, pending 24 hours and
 * then paid or forfeited. The normalized post URL is unique across all accounts (one post is one
 * claim); the 7-day and daily limits are checked under a per-account advisory lock
 * (social.repository.ts), so concurrent shares of one account are decided one at a time.
 */
export class SocialShares1764000003100 implements MigrationInterface {
  name = 'SocialShares1764000003100';
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "social_shares" ("id" uuid NOT NULL, "account_uuid" uuid NOT NULL, "platform" character varying(16) NOT NULL, "post_url" character varying(200) NOT NULL, "submitted_url" character varying(2048) NOT NULL, "time_zone" character varying(64) NOT NULL, "local_time" character varying(32) NOT NULL, "is_prime_time" boolean NOT NULL, "reward_micro" bigint NOT NULL, "wallet_kind" character varying(20) NOT NULL, "status" character varying(10) NOT NULL DEFAULT 'pending', "shared_at" TIMESTAMP WITH TIME ZONE NOT NULL, "pays_at" TIMESTAMP WITH TIME ZONE NOT NULL, "settled_at" TIMESTAMP WITH TIME ZONE, "verification" character varying(10), "ledger_transaction_id" uuid, CONSTRAINT "ck_social_shares_settled" CHECK (("status" = 'pending') = ("settled_at" IS NULL) AND ("status" = 'paid') = ("ledger_transaction_id" IS NOT NULL)), CONSTRAINT "ck_social_shares_verification" CHECK ("verification" IS NULL OR "verification" IN ('skipped', 'up', 'gone', 'unknown')), CONSTRAINT "ck_social_shares_reward" CHECK ("reward_micro" > 0), CONSTRAINT "ck_social_shares_wallet" CHECK ("wallet_kind" IN ('client_wallet', 'node_wallet')), CONSTRAINT "ck_social_shares_status" CHECK ("status" IN ('pending', 'paid', 'forfeited')), CONSTRAINT "ck_social_shares_platform" CHECK ("platform" IN ('twitter', 'instagram')), CONSTRAINT "PK_9c1f241ef146fd3ea7249a88ab3" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_social_shares_due" ON "social_shares" ("pays_at") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_social_shares_account" ON "social_shares" ("account_uuid", "shared_at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_social_shares_post_url" ON "social_shares" ("post_url") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."uq_social_shares_post_url"`);
    await queryRunner.query(`DROP INDEX "public"."ix_social_shares_account"`);
    await queryRunner.query(`DROP INDEX "public"."ix_social_shares_due"`);
    await queryRunner.query(`DROP TABLE "social_shares"`);
  }
}
