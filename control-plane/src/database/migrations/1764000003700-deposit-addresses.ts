import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-account deposit addresses (docs/deposits.md#per-account-addresses): each account wallet's
 * derivation index, assigned once from a sequence, and the address derived from it (for lookup;
 * the seed and the keys are never stored).
 */
export class DepositAddresses1764000003700 implements MigrationInterface {
  name = 'DepositAddresses1764000003700';
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "deposit_addresses" ("owner_uuid" uuid NOT NULL, "wallet_kind" character varying(16) NOT NULL, "derivation_index" SERIAL NOT NULL, "address" character varying(44) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "ck_deposit_addresses_wallet" CHECK ("wallet_kind" IN ('client_wallet', 'node_wallet')), CONSTRAINT "PK_dd5544783c8d6aea62f8a862a08" PRIMARY KEY ("owner_uuid", "wallet_kind"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_deposit_addresses_index" ON "deposit_addresses" ("derivation_index") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_deposit_addresses_address" ON "deposit_addresses" ("address") `,
    );
    await queryRunner.query(
      `ALTER TABLE "deposit_addresses" ADD CONSTRAINT "fk_deposit_addresses_owner" FOREIGN KEY ("owner_uuid") REFERENCES "accounts"("uuid") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "deposit_addresses" DROP CONSTRAINT "fk_deposit_addresses_owner"`,
    );
    await queryRunner.query(`DROP INDEX "public"."uq_deposit_addresses_address"`);
    await queryRunner.query(`DROP INDEX "public"."uq_deposit_addresses_index"`);
    await queryRunner.query(`DROP TABLE "deposit_addresses"`);
  }
}
