-- A new server gets its market listing, in the statement that inserts it (trigger
-- market_servers_inserted): the columns the market sorts and filters by, copied from the
-- server; never reported yet means reliability 0 and stale. The address and core rules are the
-- purchase's too (nodes/server-address.ts hasDialableAddress, @scn/proto CORE_DOWN_STATES), so a
-- server is listed as buyable exactly when the purchase accepts it; market-rules.db-spec checks
-- the two agree.
CREATE OR REPLACE FUNCTION market_servers_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO market_listings (server_id, country, search_text, ping_ms, uptime_hours, capacity, banned,
                               has_address, core_down, last_report_at, reliability, stale, premium)
  SELECT n.id, n.country, lower(concat_ws(E'\n', n.name, n.location, n.host)) AS search_text, n.ping_ms,
    (n.uptime_seconds / 3600)::int AS uptime_hours, market_capacity(n.tier) AS capacity,
    n.banned_at IS NOT NULL AS banned,
    COALESCE(n.host <> '' AND n.port > 0 AND (n.source <> 'manual' OR n.vless_string <> ''), false) AS has_address,
    COALESCE(n.core_state IN ({{coreDownStates}}), false) AS core_down, n.last_report_at,
    CASE WHEN n.last_report_at IS NULL THEN 0 ELSE n.reliability_at_report END,
    n.last_report_at IS NULL,
    EXISTS (SELECT 1 FROM market_settings m JOIN accounts a ON a.email = m.platform_operator_email
     WHERE a.uuid = n.owner_uuid)
  FROM new_rows n;
  RETURN NULL;
END $$;
