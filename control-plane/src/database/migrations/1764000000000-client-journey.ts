import type { MigrationInterface, QueryRunner } from 'typeorm';
import { sqlFunction } from '../sql-functions';

/**
 * The client journey's money: a double-entry ledger whose invariants the database itself keeps
 * (balances maintained by trigger from the entries, every transaction sums to zero at commit,
 * entries append-only, wallets never negative), payment idempotency keys, and the operator-set
 * country and location of a server.
 */

export class ClientJourney1764000000000 implements MigrationInterface {
  name = 'ClientJourney1764000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "idempotency_keys" ("owner_uuid" uuid NOT NULL, "key" character varying(128) NOT NULL, "request_hash" character(64) NOT NULL, "status_code" smallint NOT NULL, "response" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_1a0650f57299b10addec6d43ef2" PRIMARY KEY ("owner_uuid", "key"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "ledger_accounts" ("id" uuid NOT NULL, "kind" character varying(20) NOT NULL, "owner_uuid" uuid NOT NULL, "balance_micro" bigint NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "ck_ledger_accounts_wallet_owner" CHECK (("kind" IN ('client_wallet', 'node_wallet')) = ("owner_uuid" <> '00000000-0000-0000-0000-000000000000')), CONSTRAINT "ck_ledger_accounts_wallet_not_negative" CHECK ("kind" NOT IN ('client_wallet', 'node_wallet') OR "balance_micro" >= 0), CONSTRAINT "ck_ledger_accounts_kind" CHECK ("kind" IN ('client_wallet', 'node_wallet', 'external', 'platform_revenue', 'burn')), CONSTRAINT "PK_62b34396dda564757cf123fff0e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_ledger_accounts_kind_owner" ON "ledger_accounts" ("kind", "owner_uuid") `,
    );
    await queryRunner.query(
      `CREATE TABLE "ledger_transactions" ("id" uuid NOT NULL, "type" character varying(32) NOT NULL, "initiator_uuid" uuid, "subscription_id" uuid, "server_count" integer, "duration" character varying(16), "description" character varying(200), "external_ref" character varying(200), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_633d103c9e415d615aacf9b1929" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_ledger_transactions_external_ref" ON "ledger_transactions" ("external_ref") WHERE "external_ref" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_ledger_transactions_subscription" ON "ledger_transactions" ("subscription_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "ledger_entries" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "transaction_id" uuid NOT NULL, "account_id" uuid NOT NULL, "amount_micro" bigint NOT NULL, "frozen_until" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "ck_ledger_entries_amount_not_zero" CHECK ("amount_micro" <> 0), CONSTRAINT "PK_6efcb84411d3f08b08450ae75d5" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_ledger_entries_transaction" ON "ledger_entries" ("transaction_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_ledger_entries_account" ON "ledger_entries" ("account_id", "id") `,
    );
    await queryRunner.query(`ALTER TABLE "servers" ADD "country" character(2)`);
    await queryRunner.query(`ALTER TABLE "servers" ADD "location" character varying(100)`);
    await queryRunner.query(
      `ALTER TABLE "ledger_entries" ADD CONSTRAINT "fk_ledger_entries_transaction" FOREIGN KEY ("transaction_id") REFERENCES "ledger_transactions"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "ledger_entries" ADD CONSTRAINT "fk_ledger_entries_account" FOREIGN KEY ("account_id") REFERENCES "ledger_accounts"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );

    await queryRunner.query(sqlFunction('ledger_apply_entry'));
    await queryRunner.query(
      `CREATE TRIGGER ledger_entries_apply AFTER INSERT ON ledger_entries FOR EACH ROW EXECUTE FUNCTION ledger_apply_entry()`,
    );
    await queryRunner.query(sqlFunction('ledger_check_balanced'));
    await queryRunner.query(
      `CREATE CONSTRAINT TRIGGER ledger_entries_balanced AFTER INSERT ON ledger_entries DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_check_balanced()`,
    );
    await queryRunner.query(sqlFunction('ledger_append_only'));
    await queryRunner.query(
      `CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries FOR EACH ROW EXECUTE FUNCTION ledger_append_only()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER ledger_transactions_append_only BEFORE UPDATE OR DELETE ON ledger_transactions FOR EACH ROW EXECUTE FUNCTION ledger_append_only()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER ledger_transactions_append_only ON ledger_transactions`);
    await queryRunner.query(`DROP TRIGGER ledger_entries_append_only ON ledger_entries`);
    await queryRunner.query(`DROP FUNCTION ledger_append_only()`);
    await queryRunner.query(`DROP TRIGGER ledger_entries_balanced ON ledger_entries`);
    await queryRunner.query(`DROP FUNCTION ledger_check_balanced()`);
    await queryRunner.query(`DROP TRIGGER ledger_entries_apply ON ledger_entries`);
    await queryRunner.query(`DROP FUNCTION ledger_apply_entry()`);
    await queryRunner.query(
      `ALTER TABLE "ledger_entries" DROP CONSTRAINT "fk_ledger_entries_account"`,
    );
    await queryRunner.query(
      `ALTER TABLE "ledger_entries" DROP CONSTRAINT "fk_ledger_entries_transaction"`,
    );
    await queryRunner.query(`ALTER TABLE "servers" DROP COLUMN "location"`);
    await queryRunner.query(`ALTER TABLE "servers" DROP COLUMN "country"`);
    await queryRunner.query(`DROP INDEX "public"."ix_ledger_entries_account"`);
    await queryRunner.query(`DROP INDEX "public"."ix_ledger_entries_transaction"`);
    await queryRunner.query(`DROP TABLE "ledger_entries"`);
    await queryRunner.query(`DROP INDEX "public"."ix_ledger_transactions_subscription"`);
    await queryRunner.query(`DROP INDEX "public"."uq_ledger_transactions_external_ref"`);
    await queryRunner.query(`DROP TABLE "ledger_transactions"`);
    await queryRunner.query(`DROP INDEX "public"."uq_ledger_accounts_kind_owner"`);
    await queryRunner.query(`DROP TABLE "ledger_accounts"`);
    await queryRunner.query(`DROP TABLE "idempotency_keys"`);
  }
}
