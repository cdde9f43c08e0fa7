import type { MigrationInterface } from 'typeorm';

/**
 * The market trigger of `servers` updates finds its listings by key.
 *
 * `market_servers_updated` joins the statement's changed servers to `market_listings` by primary
 * key. For a report batch (tens of servers) PostgreSQL's default `random_page_cost` of 4, which
 * prices a random read as a disk seek, made the planner scan every listing twice instead: a
 * sequential scan of the whole table per batch, which grows with the network (bench/ingest, 2,000
 * nodes: 2.0 ms of the trigger's 2.2 ms with nothing to change; 0.8 ms with index probes). The
 * listings an agent batch touches are hot in shared buffers, so the function plans with the cost
 * of a cached random read; every other query keeps the server's setting.
 *
 * Since migration 1800 this migration does nothing: `market_servers_updated` has one source,
 * src/market/sql/market_servers_updated.sql, which migration 100 installs on a fresh database
 * and migration 1800 on a database migrated before (which keeps the function this installed
 * until then). The bodies it installed and restored are in the repository's history; undoing it
 * leaves the current function.
 */
export class MarketTriggerPlans1764000000700 implements MigrationInterface {
  name = 'MarketTriggerPlans1764000000700';

  public async up(): Promise<void> {
    // Installed from its source file by migrations 100 (fresh databases) and 1800.
  }

  public async down(): Promise<void> {
    // Nothing to undo: see above.
  }
}
