import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The facts the operators' economy is computed from: each server's reliability per
 * UTC day (primary key by server for the chart, a BRIN index on the day for a period's scan),
 * where the history is written up to, the hardware's age, the halving cut, and each operator's
 * automatic stake.
 */
export class EconomyFacts1764000002500 implements MigrationInterface {
  name = 'EconomyFacts1764000002500';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "server_reliability_days" ("server_id" uuid NOT NULL, "day" date NOT NULL, "owner_uuid" uuid NOT NULL, "tier" character varying(8), "observed_seconds" integer NOT NULL DEFAULT '0', "reliability_seconds" bigint NOT NULL DEFAULT '0', "below_seconds" integer NOT NULL DEFAULT '0', "stale_seconds" integer NOT NULL DEFAULT '0', "failed_reports" integer NOT NULL DEFAULT '0', "malformed_reports" integer NOT NULL DEFAULT '0', "min_reliability" smallint NOT NULL DEFAULT '100', CONSTRAINT "PK_server_reliability_days" PRIMARY KEY ("server_id", "day"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_server_reliability_days_day" ON "server_reliability_days" USING brin ("day")`,
    );
    await queryRunner.query(
      `ALTER TABLE "servers" ADD "history_until" TIMESTAMP WITH TIME ZONE, ADD "hardware_since" TIMESTAMP WITH TIME ZONE, ADD "halving_cut" boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(
      `CREATE TABLE "operator_economy_settings" ("owner_uuid" uuid NOT NULL, "auto_stake_percent" smallint NOT NULL DEFAULT '0', "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "ck_operator_economy_settings_auto_stake" CHECK ("auto_stake_percent" BETWEEN 0 AND 100), CONSTRAINT "PK_operator_economy_settings" PRIMARY KEY ("owner_uuid"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "operator_economy_settings"`);
    await queryRunner.query(
      `ALTER TABLE "servers" DROP COLUMN "halving_cut", DROP COLUMN "hardware_since", DROP COLUMN "history_until"`,
    );
    await queryRunner.query(`DROP TABLE "server_reliability_days"`);
  }
}
