import type { MigrationInterface, QueryRunner } from 'typeorm';
import { sqlFunction } from '../sql-functions';

/**
 * A ledger transaction says what it is as a code and its values
 * (`TransactionDescriptionValues` of @scn/proto), so the portal words it in the reader's language;
 * `description` stays the English text (logs, older rows, older clients). Both null on rows
 * written before. `ledger_post` writes them.
 */
export class LedgerDescriptionCodes1764000003500 implements MigrationInterface {
  name = 'LedgerDescriptionCodes1764000003500';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "ledger_transactions" ADD "description_code" character varying(40)`,
    );
    await queryRunner.query(`ALTER TABLE "ledger_transactions" ADD "description_values" jsonb`);
    await queryRunner.query(sqlFunction('ledger_post'));
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // ledger_post keeps its body: it writes only the columns the table has.
    await queryRunner.query(`ALTER TABLE "ledger_transactions" DROP COLUMN "description_values"`);
    await queryRunner.query(`ALTER TABLE "ledger_transactions" DROP COLUMN "description_code"`);
  }
}
