import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Withdrawals: one row per withdrawal with its quote, the ledger movement that
 * debited it, the signed payout (signature unique, stored before it is first sent), its status
 * (pending, sent, confirmed, failed) and, when it failed, the one reversal that gave it back.
 * An Idempotency-Key is unique per operator.
 */
export class Withdrawals1764000002800 implements MigrationInterface {
  name = 'Withdrawals1764000002800';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "withdrawals" ("id" uuid NOT NULL, "owner_uuid" uuid NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'pending', "amount_micro" bigint NOT NULL, "fee_micro" bigint NOT NULL, "net_micro" bigint NOT NULL, "ssl_per_sol" integer NOT NULL, "lamports" bigint NOT NULL, "destination" character varying(44) NOT NULL, "idempotency_key" character varying(128), "ledger_transaction_id" uuid NOT NULL, "reversal_transaction_id" uuid, "signature" character varying(88), "blockhash" character varying(44), "last_valid_block_height" bigint, "signed_transaction" text, "send_attempts" integer NOT NULL DEFAULT '0', "failure_reason" character varying(300), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "sent_at" TIMESTAMP WITH TIME ZONE, "confirmed_at" TIMESTAMP WITH TIME ZONE, "failed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "ck_withdrawals_reversed" CHECK (("status" = 'failed') = ("reversal_transaction_id" IS NOT NULL)), CONSTRAINT "ck_withdrawals_signed" CHECK (("status" = 'pending') = ("signature" IS NULL) AND ("signature" IS NULL) = ("signed_transaction" IS NULL) AND ("signature" IS NULL) = ("last_valid_block_height" IS NULL)), CONSTRAINT "ck_withdrawals_amounts" CHECK ("fee_micro" >= 0 AND "net_micro" > 0 AND "amount_micro" = "fee_micro" + "net_micro" AND "lamports" > 0 AND "ssl_per_sol" > 0), CONSTRAINT "ck_withdrawals_status" CHECK ("status" IN ('pending', 'sent', 'confirmed', 'failed')), CONSTRAINT "PK_9871ec481baa7755f8bd8b7c7e9" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_withdrawals_signature" ON "withdrawals" ("signature") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_withdrawals_idempotency" ON "withdrawals" ("owner_uuid", "idempotency_key") WHERE "idempotency_key" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_withdrawals_open" ON "withdrawals" ("created_at") WHERE "status" IN ('pending', 'sent')`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_withdrawals_owner" ON "withdrawals" ("owner_uuid", "created_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "withdrawals" ADD CONSTRAINT "fk_withdrawals_ledger_transaction" FOREIGN KEY ("ledger_transaction_id") REFERENCES "ledger_transactions"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "withdrawals" ADD CONSTRAINT "fk_withdrawals_reversal_transaction" FOREIGN KEY ("reversal_transaction_id") REFERENCES "ledger_transactions"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "withdrawals"`);
  }
}
