import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Transfers to per-account deposit addresses, the watcher's cursor on the chain, and sweeps to
 * the treasury (docs/deposits.md#per-account-addresses).
 */
export class DepositTransfers1764000003800 implements MigrationInterface {
  name = 'DepositTransfers1764000003800';
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "deposit_sweeps" ("id" uuid NOT NULL DEFAULT uuid_generate_v4(), "address" character varying(44) NOT NULL, "signature" character varying(88) NOT NULL, "signed_transaction" text NOT NULL, "last_valid_block_height" bigint NOT NULL, "lamports" numeric(20,0) NOT NULL, "tokens" jsonb NOT NULL, "status" character varying(8) NOT NULL, "error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "settled_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "ck_deposit_sweeps_status" CHECK ("status" IN ('sent', 'done', 'failed', 'expired')), CONSTRAINT "PK_bfb6312478e1669a28f2347cdba" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_deposit_sweeps_signature" ON "deposit_sweeps" ("signature") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_deposit_sweeps_in_flight" ON "deposit_sweeps" ("address") WHERE "status" = 'sent'`,
    );
    await queryRunner.query(
      `CREATE TABLE "deposit_transfers" ("id" uuid NOT NULL DEFAULT uuid_generate_v4(), "signature" character varying(88) NOT NULL, "address" character varying(44) NOT NULL, "owner_uuid" uuid NOT NULL, "wallet_kind" character varying(16) NOT NULL, "asset" character varying(44) NOT NULL, "currency" character varying(8), "token_program" character varying(44), "base_units" numeric(20,0) NOT NULL, "decimals" smallint NOT NULL, "status" character varying(16) NOT NULL, "refused_reason" character varying(24), "ssl_per_unit_micro" bigint, "credit_micro" bigint, "slot" bigint NOT NULL, "block_time" TIMESTAMP WITH TIME ZONE, "seen_at" TIMESTAMP WITH TIME ZONE NOT NULL, "final_at" TIMESTAMP WITH TIME ZONE, "credited_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "ck_deposit_transfers_amount" CHECK ("base_units" > 0), CONSTRAINT "ck_deposit_transfers_credit" CHECK (("status" = 'credited') = ("credit_micro" IS NOT NULL AND "credited_at" IS NOT NULL)), CONSTRAINT "ck_deposit_transfers_currency" CHECK ("currency" IS NULL OR "currency" IN ('SOL', 'USDC', 'USDT')), CONSTRAINT "ck_deposit_transfers_status" CHECK ("status" IN ('confirming', 'pending_minimum', 'credited', 'refused', 'dropped')), CONSTRAINT "PK_48f70689b1dfa8260a12fbd7e8a" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_deposit_transfers_owner" ON "deposit_transfers" ("owner_uuid", "wallet_kind", "seen_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_deposit_transfers_open" ON "deposit_transfers" ("status") WHERE "status" IN ('confirming', 'pending_minimum')`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_deposit_transfers_asset" ON "deposit_transfers" ("signature", "address", "asset") `,
    );
    await queryRunner.query(
      `CREATE TABLE "deposit_watch_cursor" ("name" character varying(16) NOT NULL, "slot" bigint NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_660220b6a256ff51a66c7b97551" PRIMARY KEY ("name"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "deposit_addresses" ADD "sweep_due_at" TIMESTAMP WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "deposit_sweeps" ADD CONSTRAINT "fk_deposit_sweeps_address" FOREIGN KEY ("address") REFERENCES "deposit_addresses"("address") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "deposit_transfers" ADD CONSTRAINT "fk_deposit_transfers_address" FOREIGN KEY ("address") REFERENCES "deposit_addresses"("address") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "deposit_transfers" DROP CONSTRAINT "fk_deposit_transfers_address"`,
    );
    await queryRunner.query(
      `ALTER TABLE "deposit_sweeps" DROP CONSTRAINT "fk_deposit_sweeps_address"`,
    );
    await queryRunner.query(`ALTER TABLE "deposit_addresses" DROP COLUMN "sweep_due_at"`);
    await queryRunner.query(`DROP TABLE "deposit_watch_cursor"`);
    await queryRunner.query(`DROP INDEX "public"."uq_deposit_transfers_asset"`);
    await queryRunner.query(`DROP INDEX "public"."ix_deposit_transfers_open"`);
    await queryRunner.query(`DROP INDEX "public"."ix_deposit_transfers_owner"`);
    await queryRunner.query(`DROP TABLE "deposit_transfers"`);
    await queryRunner.query(`DROP INDEX "public"."uq_deposit_sweeps_in_flight"`);
    await queryRunner.query(`DROP INDEX "public"."uq_deposit_sweeps_signature"`);
    await queryRunner.query(`DROP TABLE "deposit_sweeps"`);
  }
}
