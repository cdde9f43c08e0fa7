-- A listing's allowed clients follow server_clients (free slots = capacity - allowed): triggers
-- market_server_clients_inserted and _deleted. Listing rows are locked in server_id order, so
-- concurrent client-set changes cannot deadlock on them.
CREATE OR REPLACE FUNCTION market_server_clients_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH d AS (SELECT server_id, count(*)::int AS n FROM new_rows GROUP BY server_id),
    locked AS (SELECT l.server_id, d.n FROM market_listings l JOIN d ON d.server_id = l.server_id
               ORDER BY l.server_id FOR UPDATE OF l)
    UPDATE market_listings l SET allowed_clients = l.allowed_clients + k.n FROM locked k WHERE l.server_id = k.server_id;
  ELSE
    WITH d AS (SELECT server_id, count(*)::int AS n FROM old_rows GROUP BY server_id),
    locked AS (SELECT l.server_id, d.n FROM market_listings l JOIN d ON d.server_id = l.server_id
               ORDER BY l.server_id FOR UPDATE OF l)
    UPDATE market_listings l SET allowed_clients = GREATEST(0, l.allowed_clients - k.n) FROM locked k WHERE l.server_id = k.server_id;
  END IF;
  RETURN NULL;
END $$;
