import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A paused subscription keeps its slots: server_clients rows stay, disabled, so capacity (the
 * purchase check and the market's free slots) counts them while the nodes do not let them in.
 */

export class ClientSlots1764000000300 implements MigrationInterface {
  name = 'ClientSlots1764000000300';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "server_clients" ADD "enabled" boolean NOT NULL DEFAULT true`,
    );
    // Subscriptions their clients paused before this: give them back their (disabled) places.
    await queryRunner.query(`INSERT INTO server_clients (server_id, client_uuid, enabled)
          SELECT ss.server_id, su.vless_uuid, false FROM subscription_servers ss
          JOIN subscriptions su ON su.id = ss.subscription_id
          WHERE su.status = 'paused' AND su.pause_reason = 'user'
          ON CONFLICT DO NOTHING`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM server_clients WHERE NOT enabled`);
    await queryRunner.query(`ALTER TABLE "server_clients" DROP COLUMN "enabled"`);
  }
}
