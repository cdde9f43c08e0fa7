import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The setup wizard names the server it sets up: the name waits on the enrollment token and is
 * the server's once it enrolls (null: a short name from the server's id, as before).
 */
export class EnrollmentTokenServerName1764000003470 implements MigrationInterface {
  name = 'EnrollmentTokenServerName1764000003470';
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "enrollment_tokens" ADD "server_name" character varying(100)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "enrollment_tokens" DROP COLUMN "server_name"`);
  }
}
