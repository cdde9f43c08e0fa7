import type { MigrationInterface, QueryRunner } from 'typeorm';

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
 */
const COPIED = `n.country, lower(concat_ws(E'\\n', n.name, n.location, n.host)) AS search_text, n.ping_ms,
    (n.uptime_seconds / 3600)::int AS uptime_hours, market_capacity(n.tier) AS capacity,
    n.banned_at IS NOT NULL AS banned, (n.host IS NOT NULL AND n.port IS NOT NULL) AS has_address,
    COALESCE(n.core_state IN ('stopped', 'failed', 'absent'), false) AS core_down, n.last_report_at`;

const UPDATE_LISTINGS = `UPDATE market_listings l SET
    country = c.country, search_text = c.search_text, ping_ms = c.ping_ms, uptime_hours = c.uptime_hours,
    capacity = c.capacity, banned = c.banned, has_address = c.has_address, core_down = c.core_down,
    last_report_at = c.last_report_at,
    reliability = CASE WHEN c.fresh THEN c.reliability_at_report ELSE l.reliability END,
    stale = CASE WHEN c.fresh THEN false ELSE l.stale END
  FROM changed c WHERE l.server_id = c.id`;

function serversUpdated(changedWhen: string): string {
  return `CREATE OR REPLACE FUNCTION market_servers_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH v AS (
    SELECT n.id, ${COPIED}, n.reliability_at_report,
      n.last_report_at IS NOT NULL AND (n.last_report_at IS DISTINCT FROM o.last_report_at
        OR n.reliability_at_report <> o.reliability_at_report) AS fresh
    FROM new_rows n JOIN old_rows o ON o.id = n.id
  ), changed AS (
    SELECT v.* FROM v JOIN market_listings l ON l.server_id = v.id
    WHERE ${changedWhen}
    ORDER BY v.id
    FOR UPDATE OF l
  )
  ${UPDATE_LISTINGS};
  RETURN NULL;
END $$`;
}

const SHOWN_CHANGED = `(l.country, l.search_text, l.uptime_hours, l.capacity, l.banned, l.has_address, l.core_down)
          IS DISTINCT FROM (v.country, v.search_text, v.uptime_hours, v.capacity, v.banned, v.has_address, v.core_down)
       OR (l.ping_ms IS NULL) <> (v.ping_ms IS NULL)
       OR abs(l.ping_ms - v.ping_ms) > GREATEST(5, l.ping_ms / 10)
       OR (v.fresh AND (l.stale OR l.reliability IS DISTINCT FROM v.reliability_at_report
                        OR l.last_report_at IS NULL
                        OR v.last_report_at - l.last_report_at >= interval '5 minutes'))`;

const EVERY_CHANGE = `v.fresh
       OR (l.country, l.search_text, l.ping_ms, l.uptime_hours, l.capacity, l.banned, l.has_address, l.core_down)
          IS DISTINCT FROM (v.country, v.search_text, v.ping_ms, v.uptime_hours, v.capacity, v.banned, v.has_address, v.core_down)`;

export class MarketReportWrites1764000000400 implements MigrationInterface {
  name = 'MarketReportWrites1764000000400';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(serversUpdated(SHOWN_CHANGED));
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(serversUpdated(EVERY_CHANGE));
  }
}
