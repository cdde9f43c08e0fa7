import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Share-and-earn on Telegram too (a public channel's post, share-url.ts). */
export class SocialTelegram1764000003527 implements MigrationInterface {
  name = 'SocialTelegram1764000003527';
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "social_shares" DROP CONSTRAINT "ck_social_shares_platform"`,
    );
    await queryRunner.query(
      `ALTER TABLE "social_shares" ADD CONSTRAINT "ck_social_shares_platform" CHECK ("platform" IN ('twitter', 'instagram', 'telegram'))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "social_shares" WHERE "platform" = 'telegram'`);
    await queryRunner.query(
      `ALTER TABLE "social_shares" DROP CONSTRAINT "ck_social_shares_platform"`,
    );
    await queryRunner.query(
      `ALTER TABLE "social_shares" ADD CONSTRAINT "ck_social_shares_platform" CHECK ("platform" IN ('twitter', 'instagram'))`,
    );
  }
}
