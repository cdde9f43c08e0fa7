import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The id of the last traffic batch applied from each node (ReportRequest
 * traffic_batch_id). A report resent after a lost answer carries the same id, and its traffic is
 * then not added again.
 */
export class TrafficBatches1764000003300 implements MigrationInterface {
  name = 'TrafficBatches1764000003300';
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "servers" ADD "last_traffic_batch_id" uuid`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "servers" DROP COLUMN "last_traffic_batch_id"`);
  }
}
