import type { MigrationInterface, QueryRunner } from 'typeorm';
import { SERVER_DIRECTORY_COLUMNS } from './1764000004310-published-read-models';

/** The nodes' published server columns, as this migration leaves them. */
export const SERVER_DIRECTORY_VIEW = `CREATE OR REPLACE VIEW server_directory AS
  SELECT ${SERVER_DIRECTORY_COLUMNS}, host_name, enrolled_host FROM servers`;

/**
 * More read models the owning domains publish (docs/architecture.md, "One home per table's reads"),
 * so no domain's SQL reads another's table. Each is a plain projection of one table (or two, for
 * the membership history), which PostgreSQL expands into the statement that reads it: the same
 * plan as reading the table, and a row lock taken through one locks the table's row.
 * - server_directory (nodes) now carries the node's DNS name and enrollment address.
 * - subscription_directory (subscriptions): a subscription's id, owner, status and VLESS uuid.
 * - subscription_server_history (subscriptions): every server a subscription holds or held.
 * - client_set_members, client_set_versions (client-sets): who may use each server, and the
 *   version of that set.
 * - traffic_days (traffic): bytes per subscription, server and UTC day.
 * - reachability_estimates (reachability): each server's state per country and network.
 * - listing_directory (market): a listing's state, promotion and places.
 * - auto_stake_settings (staking): each operator's automatic stake.
 * - stake_requirements (rewards): the stake each monthly statement requires.
 */
export class MoreReadModels1764000004320 implements MigrationInterface {
  name = 'MoreReadModels1764000004320';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(SERVER_DIRECTORY_VIEW);
    await queryRunner.query(
      `CREATE VIEW subscription_directory AS
       SELECT id, owner_uuid, status, vless_uuid FROM subscriptions`,
    );
    await queryRunner.query(
      `CREATE VIEW subscription_server_history AS
       SELECT subscription_id, server_id FROM subscription_servers
       UNION SELECT subscription_id, server_id FROM subscription_server_drops`,
    );
    await queryRunner.query(
      `CREATE VIEW client_set_members AS SELECT server_id, client_uuid FROM server_clients`,
    );
    await queryRunner.query(
      `CREATE VIEW client_set_versions AS SELECT server_id, version FROM server_client_sets`,
    );
    await queryRunner.query(
      `CREATE VIEW traffic_days AS
       SELECT subscription_id, server_id, day, upload_bytes, download_bytes
       FROM subscription_traffic_days`,
    );
    await queryRunner.query(
      `CREATE VIEW reachability_estimates AS
       SELECT server_id, country, asn, state, score, blocked_since FROM server_reachability`,
    );
    await queryRunner.query(
      `CREATE VIEW listing_directory AS
       SELECT server_id, listed, premium, promoted_until, promotion_micro, capacity,
         allowed_clients
       FROM market_listings`,
    );
    await queryRunner.query(
      `CREATE VIEW auto_stake_settings AS
       SELECT owner_uuid, auto_stake_percent FROM operator_economy_settings`,
    );
    await queryRunner.query(
      `CREATE VIEW stake_requirements AS
       SELECT owner_uuid, server_id, period, required_stake_micro FROM reward_statements`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const view of [
      'stake_requirements',
      'auto_stake_settings',
      'listing_directory',
      'reachability_estimates',
      'traffic_days',
      'client_set_versions',
      'client_set_members',
      'subscription_server_history',
      'subscription_directory',
    ]) {
      await queryRunner.query(`DROP VIEW ${view}`);
    }
    await queryRunner.query(`DROP VIEW server_directory`);
    await queryRunner.query(
      `CREATE VIEW server_directory AS SELECT ${SERVER_DIRECTORY_COLUMNS} FROM servers`,
    );
  }
}
