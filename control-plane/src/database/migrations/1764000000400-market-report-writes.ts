import type { MigrationInterface } from 'typeorm';

/**
 * Agent reports stop rewriting the market listing when nothing a market page shows has changed.
 *
 * A report batch updates `servers`, and the market trigger used to rewrite every reported
 * server's `market_listings` row (a non-HOT update through all of its ordered and trigram
 * indexes, plus the counters' statement trigger): 80% of a report batch's time in PostgreSQL
 * (bench/ingest). Now a report changes the listing only when the listing would show something
 * else:
 * - what it already copied: country, searchable text, capacity, banned, address, core state,
 *   the uptime in whole hours;
 * - the reliability or freshness (a stale listing, or a score that moved);
 * - the ping by more than 5 ms or 10% (a round-trip time jitters by a millisecond or two on every
 *   report; the node dashboard still shows the exact figure from `servers`);
 * - and at least every 5 minutes, so the listing's `last_report_at` (which only picks decay
 *   candidates: the decay itself reads `servers.last_report_at`) stays within 5 minutes.
 *
 * Since migration 1800 this migration does nothing: `market_servers_updated` has one source,
 * src/market/sql/market_servers_updated.sql, which migration 100 installs on a fresh database
 * and migration 1800 on a database migrated before (which keeps the function this installed
 * until then). The bodies it installed and restored are in the repository's history; undoing it
 * leaves the current function.
 */
export class MarketReportWrites1764000000400 implements MigrationInterface {
  name = 'MarketReportWrites1764000000400';

  public async up(): Promise<void> {
    // Installed from its source file by migrations 100 (fresh databases) and 1800.
  }

  public async down(): Promise<void> {
    // Nothing to undo: see above.
  }
}
