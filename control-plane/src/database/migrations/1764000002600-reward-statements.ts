import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The monthly rewards: one run per period, one statement per node and period
 * (every input and result of the formula), one staking statement per operator and period, and
 * the ban notices (one e-mail per ban). Servers banned before this migration count as told: the
 * dashboard already showed them banned, and a deploy must not mail every past ban at once.
 * A BRIN index on ledger_transactions.created_at serves a period's read of subscription rewards.
 */
export class RewardStatements1764000002600 implements MigrationInterface {
  name = 'RewardStatements1764000002600';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "reward_runs" ("period" date NOT NULL, "status" character varying(10) NOT NULL, "month_index" integer NOT NULL, "pool_micro" bigint NOT NULL, "budget_micro" bigint NOT NULL, "demand_micro" bigint NOT NULL, "scale_numerator_micro" bigint NOT NULL, "scale_denominator_micro" bigint NOT NULL, "statements" integer NOT NULL, "staking_statements" integer NOT NULL, "computed_at" TIMESTAMP WITH TIME ZONE NOT NULL, "paid_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "ck_reward_runs_status" CHECK ("status" IN ('computed', 'paid')), CONSTRAINT "PK_37516a5f5293825aee712c20aef" PRIMARY KEY ("period"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "reward_staking_statements" ("owner_uuid" uuid NOT NULL, "period" date NOT NULL, "stake_at_start_micro" bigint NOT NULL, "stake_at_end_micro" bigint NOT NULL, "income_micro" bigint NOT NULL, "scale_numerator_micro" bigint NOT NULL, "scale_denominator_micro" bigint NOT NULL, "paid_micro" bigint NOT NULL, "status" character varying(10) NOT NULL, "computed_at" TIMESTAMP WITH TIME ZONE NOT NULL, "paid_at" TIMESTAMP WITH TIME ZONE, "ledger_transaction_id" uuid, CONSTRAINT "ck_reward_staking_statements_status" CHECK ("status" IN ('computed', 'paid')), CONSTRAINT "PK_29a20faade0e577d92b466439b1" PRIMARY KEY ("owner_uuid", "period"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "reward_statements" ("server_id" uuid NOT NULL, "period" date NOT NULL, "owner_uuid" uuid NOT NULL, "tier" character varying(8), "server_state" character varying(8) NOT NULL, "period_seconds" integer NOT NULL, "observed_seconds" integer NOT NULL, "reliability_seconds" bigint NOT NULL, "below_seconds" integer NOT NULL, "enrolled_at" TIMESTAMP WITH TIME ZONE NOT NULL, "hardware_since" TIMESTAMP WITH TIME ZONE NOT NULL, "node_year" smallint NOT NULL, "stake_micro" bigint NOT NULL, "required_before_micro" bigint NOT NULL, "halving_cut" boolean NOT NULL, "required_stake_micro" bigint NOT NULL, "tier_base_micro" bigint NOT NULL, "pro_rata_micro" bigint NOT NULL, "reliability_basis_points" integer NOT NULL, "slash_basis_points" integer NOT NULL, "earned_micro" bigint NOT NULL, "frozen_micro" bigint NOT NULL, "payable_micro" bigint NOT NULL, "subscription_clients" integer NOT NULL, "subscription_micro" bigint NOT NULL, "ad_bonus_micro" bigint NOT NULL, "income_micro" bigint NOT NULL, "withheld" character varying(8), "pool_wallet_micro" bigint NOT NULL, "pool_escrow_micro" bigint NOT NULL, "scale_numerator_micro" bigint NOT NULL, "scale_denominator_micro" bigint NOT NULL, "paid_payable_micro" bigint NOT NULL, "escrowed_micro" bigint NOT NULL, "auto_stake_percent" smallint NOT NULL, "auto_staked_micro" bigint NOT NULL, "wallet_micro" bigint NOT NULL, "status" character varying(10) NOT NULL, "computed_at" TIMESTAMP WITH TIME ZONE NOT NULL, "paid_at" TIMESTAMP WITH TIME ZONE, "ledger_transaction_id" uuid, CONSTRAINT "ck_reward_statements_withheld" CHECK ("withheld" IS NULL OR "withheld" IN ('hidden', 'banned', 'deleted')), CONSTRAINT "ck_reward_statements_state" CHECK ("server_state" IN ('active', 'hidden', 'banned', 'deleted')), CONSTRAINT "ck_reward_statements_status" CHECK ("status" IN ('computed', 'paid', 'withheld')), CONSTRAINT "PK_e574d393472f1e330238cdeb00c" PRIMARY KEY ("server_id", "period"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_reward_statements_unpaid" ON "reward_statements" ("period", "server_id") WHERE "status" = 'computed'`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_reward_statements_owner" ON "reward_statements" ("owner_uuid", "period") `,
    );
    await queryRunner.query(
      `CREATE TABLE "server_ban_notices" ("server_id" uuid NOT NULL, "banned_at" TIMESTAMP WITH TIME ZONE NOT NULL, "owner_uuid" uuid NOT NULL, "notified_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_1d59c2f711bbec3cfde7e2dd35a" PRIMARY KEY ("server_id", "banned_at"))`,
    );
    await queryRunner.query(
      `INSERT INTO "server_ban_notices" ("server_id", "banned_at", "owner_uuid", "notified_at")
       SELECT "id", "banned_at", "owner_uuid", now() FROM "servers" WHERE "banned_at" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_ledger_transactions_created_at" ON "ledger_transactions" USING brin ("created_at")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_ledger_transactions_created_at"`);
    await queryRunner.query(`DROP TABLE "server_ban_notices"`);
    await queryRunner.query(`DROP INDEX "public"."ix_reward_statements_owner"`);
    await queryRunner.query(`DROP INDEX "public"."ix_reward_statements_unpaid"`);
    await queryRunner.query(`DROP TABLE "reward_statements"`);
    await queryRunner.query(`DROP TABLE "reward_staking_statements"`);
    await queryRunner.query(`DROP TABLE "reward_runs"`);
  }
}
