import type { MigrationInterface } from 'typeorm';

/**
 * The market trigger of `servers` updates returns at once when no listing would change.
 *
 * Most agent report batches change no market listing (migration 400: a listing follows a report
 * only when a page would show something else). The trigger still ran its `UPDATE market_listings`
 * with nothing to update, and PostgreSQL fires an UPDATE's statement-level triggers (the market
 * counters, with their transition tables) even when it changes no row. `EXPLAIN ANALYZE` of a
 * 28-server report batch on 2,000 servers: 1.4-2.3 ms in the trigger before, 0.2-0.4 ms with the
 * check first; a batch that does change listings pays the check on top (the same join, without
 * the update).
 *
 * Since migration 1800 this migration does nothing: `market_servers_updated` has one source,
 * src/market/sql/market_servers_updated.sql, which migration 100 installs on a fresh database
 * and migration 1800 on a database migrated before (which keeps the function this installed
 * until then). The bodies it installed and restored are in the repository's history; undoing it
 * leaves the current function.
 */
export class MarketTriggerEarlyExit1764000000800 implements MigrationInterface {
  name = 'MarketTriggerEarlyExit1764000000800';

  public async up(): Promise<void> {
    // Installed from its source file by migrations 100 (fresh databases) and 1800.
  }

  public async down(): Promise<void> {
    // Nothing to undo: see above.
  }
}
