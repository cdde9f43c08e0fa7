import type { MigrationInterface } from 'typeorm';

/**
 * The early exit of the market trigger of `servers` updates (migration 800) reads only the new
 * rows.
 *
 * Its check joined the statement's old and new rows to tell a fresh report from another change.
 * PostgreSQL plans that join of two transition tables as a nested loop: every new row scans all
 * old rows, so a report batch of n servers cost n² comparisons (`EXPLAIN ANALYZE` of a quiet
 * 28-server batch: 756 rows filtered away, half of the 0.39 ms in the check). The check now
 * treats every reported server as fresh. That can only find more listings to change, never
 * fewer, so when it finds none nothing would change; when it finds some, the update still
 * tells fresh reports apart exactly, as before.
 *
 * Since migration 1800 this migration does nothing: `market_servers_updated` has one source,
 * src/market/sql/market_servers_updated.sql, which migration 100 installs on a fresh database
 * and migration 1800 on a database migrated before (which keeps the function this installed
 * until then). The bodies it installed and restored are in the repository's history; undoing it
 * leaves the current function.
 */
export class MarketTriggerCheckNewRows1764000000900 implements MigrationInterface {
  name = 'MarketTriggerCheckNewRows1764000000900';

  public async up(): Promise<void> {
    // Installed from its source file by migrations 100 (fresh databases) and 1800.
  }

  public async down(): Promise<void> {
    // Nothing to undo: see above.
  }
}
