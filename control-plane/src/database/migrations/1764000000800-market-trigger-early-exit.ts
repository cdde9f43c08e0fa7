import type { MigrationInterface, QueryRunner } from 'typeorm';

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
 * The SQL below is migration 400's, copied: a migration is a snapshot and never changes after it
 * landed. The function keeps migration 700's planner setting.
 */
const V = `v AS (
    SELECT n.id, n.country, lower(concat_ws(E'\\n', n.name, n.location, n.host)) AS search_text, n.ping_ms,
    (n.uptime_seconds / 3600)::int AS uptime_hours, market_capacity(n.tier) AS capacity,
    n.banned_at IS NOT NULL AS banned, (n.host IS NOT NULL AND n.port IS NOT NULL) AS has_address,
    COALESCE(n.core_state IN ('stopped', 'failed', 'absent'), false) AS core_down, n.last_report_at, n.reliability_at_report,
      n.last_report_at IS NOT NULL AND (n.last_report_at IS DISTINCT FROM o.last_report_at
        OR n.reliability_at_report <> o.reliability_at_report) AS fresh
    FROM new_rows n JOIN old_rows o ON o.id = n.id
  )`;

const SHOWN_CHANGED = `(l.country, l.search_text, l.uptime_hours, l.capacity, l.banned, l.has_address, l.core_down)
          IS DISTINCT FROM (v.country, v.search_text, v.uptime_hours, v.capacity, v.banned, v.has_address, v.core_down)
       OR (l.ping_ms IS NULL) <> (v.ping_ms IS NULL)
       OR abs(l.ping_ms - v.ping_ms) > GREATEST(5, l.ping_ms / 10)
       OR (v.fresh AND (l.stale OR l.reliability IS DISTINCT FROM v.reliability_at_report
                        OR l.last_report_at IS NULL
                        OR v.last_report_at - l.last_report_at >= interval '5 minutes'))`;

const UPDATE = `WITH ${V}, changed AS (
    SELECT v.* FROM v JOIN market_listings l ON l.server_id = v.id
    WHERE ${SHOWN_CHANGED}
    ORDER BY v.id
    FOR UPDATE OF l
  )
  UPDATE market_listings l SET
    country = c.country, search_text = c.search_text, ping_ms = c.ping_ms, uptime_hours = c.uptime_hours,
    capacity = c.capacity, banned = c.banned, has_address = c.has_address, core_down = c.core_down,
    last_report_at = c.last_report_at,
    reliability = CASE WHEN c.fresh THEN c.reliability_at_report ELSE l.reliability END,
    stale = CASE WHEN c.fresh THEN false ELSE l.stale END
  FROM changed c WHERE l.server_id = c.id`;

function serversUpdated(earlyExit: boolean): string {
  const check = earlyExit
    ? `IF NOT EXISTS (
    WITH ${V}
    SELECT 1 FROM v JOIN market_listings l ON l.server_id = v.id WHERE ${SHOWN_CHANGED}
  ) THEN
    RETURN NULL;
  END IF;
  `
    : '';
  return `CREATE OR REPLACE FUNCTION market_servers_updated() RETURNS trigger LANGUAGE plpgsql
SET random_page_cost = 1.1 AS $$
BEGIN
  ${check}${UPDATE};
  RETURN NULL;
END $$`;
}

export class MarketTriggerEarlyExit1764000000800 implements MigrationInterface {
  name = 'MarketTriggerEarlyExit1764000000800';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(serversUpdated(true));
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(serversUpdated(false));
  }
}
