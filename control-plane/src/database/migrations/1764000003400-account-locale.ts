import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * docs/i18n.md: an account may save the language of the portal (one of `LOCALES`); null leaves
 * it to the browser.
 */
export class AccountLocale1764000003400 implements MigrationInterface {
  name = 'AccountLocale1764000003400';
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "accounts" ADD "locale" character varying(5)`);
    await queryRunner.query(
      `ALTER TABLE "accounts" ADD CONSTRAINT "ck_accounts_locale" CHECK ("locale" IN ('en', 'fa', 'ru', 'zh'))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "accounts" DROP CONSTRAINT "ck_accounts_locale"`);
    await queryRunner.query(`ALTER TABLE "accounts" DROP COLUMN "locale"`);
  }
}
