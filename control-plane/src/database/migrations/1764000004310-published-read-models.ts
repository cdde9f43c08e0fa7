import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The servers' columns server_directory publishes (1764000004320 appends two). */
export const SERVER_DIRECTORY_COLUMNS = `id, owner_uuid, name, source, tier, host, port, inbound,
  vless_string, hardware, agent_version, core_state, active_clients, ping_ms, uptime_seconds,
  reliability_at_report, last_report_at, last_credited_at, below_threshold_since, banned_at,
  applied_client_set_version, created_at, updated_at, country, location, hardware_since,
  halving_cut, core, plan_port, plan_security, plan_network,
  plan_revision, port_regenerated_at, certificate_pem, last_traffic_batch_id, probe_uuid,
  auto_regenerate_s`;

/**
 * The read models a domain publishes for other domains' SQL (docs/architecture.md, "One home per
 * table's reads"): a table is read only by its owner's repository, and other domains read what
 * the owner publishes. Simple views: PostgreSQL inlines them (the same plans as the tables),
 * a locking clause through one locks the table's rows, and a column the owner does not publish
 * cannot be read from outside.
 *
 * - server_directory (nodes): a server's columns but the agent's secret hash, its DNS name and
 *   enrollment address, and a manual server's check (read from the table by node-dns and
 *   manual-servers until they ask nodes).
 * - account_directory (accounts): an account's uuid, email, type, name and language, never its
 *   password hash.
 * - wallet_balances (wallet): each ledger account's kind, owner and balance.
 * - wallet_movements (wallet): each ledger entry with its account's kind and owner and its
 *   transaction's type and references (outer joins on the primary keys, so a query that does not
 *   read the account's or the transaction's columns does not join them).
 */
export class PublishedReadModels1764000004310 implements MigrationInterface {
  name = 'PublishedReadModels1764000004310';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE VIEW server_directory AS SELECT ${SERVER_DIRECTORY_COLUMNS} FROM servers`,
    );
    await queryRunner.query(
      `CREATE VIEW account_directory AS
       SELECT uuid, email, user_type, name, locale, created_at FROM accounts`,
    );
    await queryRunner.query(
      `CREATE VIEW wallet_balances AS
       SELECT id AS account_id, kind, owner_uuid, balance_micro FROM ledger_accounts`,
    );
    await queryRunner.query(
      `CREATE VIEW wallet_movements AS
       SELECT e.id AS entry_id, e.account_id, a.kind AS account_kind, a.owner_uuid,
         e.amount_micro, e.frozen_until, e.created_at, e.transaction_id, t.type,
         t.external_ref, t.server_count, t.subscription_id, t.created_at AS transaction_created_at
       FROM ledger_entries e
         LEFT JOIN ledger_accounts a ON a.id = e.account_id
         LEFT JOIN ledger_transactions t ON t.id = e.transaction_id`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP VIEW wallet_movements`);
    await queryRunner.query(`DROP VIEW wallet_balances`);
    await queryRunner.query(`DROP VIEW account_directory`);
    await queryRunner.query(`DROP VIEW server_directory`);
  }
}
