-- A servers update (agent report batches, probes, the reliability sweep, Node Configuration)
-- copies into the server's market listing what a market page would show differently (trigger
-- market_servers_updated, one call per statement):
-- - what it already copied: country, searchable text, banned, address, core state, the uptime
--   in whole hours (the capacity follows the tier and the halving cut, trigger
--   market_servers_capacity, which these writes never touch);
-- - the reliability or freshness (a stale listing, or a score that moved): a write that moves
--   `last_report_at` (or the score at report) is a fresh report, which sets the reliability now
--   and clears `stale` (staleness decay needs the clock: the minute sweep writes it);
-- - the ping by more than 5 ms or 10% (a round-trip time jitters by a millisecond or two on every
--   report; the node dashboard shows the exact figure from `servers`);
-- - and at least every 5 minutes, so the listing's `last_report_at` stays within 5 minutes.
-- Most report batches change no listing, and PostgreSQL fires an UPDATE's statement triggers
-- (the market counters) even when it changes no row: so it first checks, from the new rows only
-- (a join of the two transition tables is a nested loop, n² for a batch of n), treating every
-- reported server as fresh, which can only find more listings to change, never fewer; the update
-- itself tells fresh reports apart exactly. Listing rows are locked in server_id order.
-- random_page_cost 1.1: the listings a batch touches are hot in shared buffers; with the default
-- 4 the planner scanned the whole table per batch instead of probing the primary key
-- (bench/ingest).
CREATE OR REPLACE FUNCTION market_servers_updated() RETURNS trigger LANGUAGE plpgsql
SET random_page_cost = 1.1 AS $$
BEGIN
  IF NOT EXISTS (
    WITH v AS (
      SELECT n.id, n.country, lower(concat_ws(E'\n', n.name, n.location, n.host)) AS search_text, n.ping_ms,
        (n.uptime_seconds / 3600)::int AS uptime_hours,
        n.banned_at IS NOT NULL AS banned,
        COALESCE(n.host <> '' AND n.port > 0 AND (n.source <> 'manual' OR n.vless_string <> ''), false) AS has_address,
        COALESCE(n.core_state IN ({{coreDownStates}}), false) AS core_down, n.last_report_at,
        n.reliability_at_report, n.last_report_at IS NOT NULL AS fresh
      FROM new_rows n
    )
    SELECT 1 FROM v JOIN market_listings l ON l.server_id = v.id
    WHERE (l.country, l.search_text, l.uptime_hours, l.banned, l.has_address, l.core_down)
          IS DISTINCT FROM (v.country, v.search_text, v.uptime_hours, v.banned, v.has_address, v.core_down)
       OR (l.ping_ms IS NULL) <> (v.ping_ms IS NULL)
       OR abs(l.ping_ms - v.ping_ms) > GREATEST(5, l.ping_ms / 10)
       OR (v.fresh AND (l.stale OR l.reliability IS DISTINCT FROM v.reliability_at_report
                        OR l.last_report_at IS NULL
                        OR v.last_report_at - l.last_report_at >= interval '5 minutes'))
  ) THEN
    RETURN NULL;
  END IF;
  WITH v AS (
    SELECT n.id, n.country, lower(concat_ws(E'\n', n.name, n.location, n.host)) AS search_text, n.ping_ms,
      (n.uptime_seconds / 3600)::int AS uptime_hours,
      n.banned_at IS NOT NULL AS banned,
      COALESCE(n.host <> '' AND n.port > 0 AND (n.source <> 'manual' OR n.vless_string <> ''), false) AS has_address,
      COALESCE(n.core_state IN ({{coreDownStates}}), false) AS core_down, n.last_report_at,
      n.reliability_at_report,
      n.last_report_at IS NOT NULL AND (n.last_report_at IS DISTINCT FROM o.last_report_at
        OR n.reliability_at_report <> o.reliability_at_report) AS fresh
    FROM new_rows n JOIN old_rows o ON o.id = n.id
  ), changed AS (
    SELECT v.* FROM v JOIN market_listings l ON l.server_id = v.id
    WHERE (l.country, l.search_text, l.uptime_hours, l.banned, l.has_address, l.core_down)
          IS DISTINCT FROM (v.country, v.search_text, v.uptime_hours, v.banned, v.has_address, v.core_down)
       OR (l.ping_ms IS NULL) <> (v.ping_ms IS NULL)
       OR abs(l.ping_ms - v.ping_ms) > GREATEST(5, l.ping_ms / 10)
       OR (v.fresh AND (l.stale OR l.reliability IS DISTINCT FROM v.reliability_at_report
                        OR l.last_report_at IS NULL
                        OR v.last_report_at - l.last_report_at >= interval '5 minutes'))
    ORDER BY v.id
    FOR UPDATE OF l
  )
  UPDATE market_listings l SET
    country = c.country, search_text = c.search_text, ping_ms = c.ping_ms, uptime_hours = c.uptime_hours,
    banned = c.banned, has_address = c.has_address, core_down = c.core_down,
    last_report_at = c.last_report_at,
    reliability = CASE WHEN c.fresh THEN c.reliability_at_report ELSE l.reliability END,
    stale = CASE WHEN c.fresh THEN false ELSE l.stale END
  FROM changed c WHERE l.server_id = c.id;
  RETURN NULL;
END $$;
