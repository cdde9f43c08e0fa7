-- Takes a place for one client on several servers, or refuses, in the caller's transaction: the
-- one capacity rule of purchases (subscription_purchase) and of anything else that gives a
-- client places (ClientSetsRepository.take). `places` is a JSON array of { id, capacity? } in
-- the client's order; a server without `capacity` takes its allowed clients
-- (market_allowed_clients: its tier's max from VPS_TIERS, halved while halving protection cuts
-- it). It locks the servers' client sets in id order (concurrent callers cannot deadlock; the
-- servers rows are not locked, so agent report batches never wait), refuses with SCN04 the
-- first server that does not exist and with SCN09 the first that is full (every place counts,
-- paused ones too: they keep their slots; counted after the lock, so it sees every client
-- committed meanwhile), then adds the client to every set, bumps their versions and notifies
-- `channel` at commit. Answers the servers whose set changed, in id order.
CREATE OR REPLACE FUNCTION client_sets_take(places jsonb, client uuid, channel text)
RETURNS uuid[] LANGUAGE plpgsql AS $$
DECLARE
  server_ids uuid[] := ARRAY(SELECT (s->>'id')::uuid FROM jsonb_array_elements(places) s);
  locked uuid[];
  refused text;
  changed uuid[];
BEGIN
  SELECT array_agg(server_id) INTO locked FROM (
    SELECT server_id FROM server_client_sets WHERE server_id = ANY(server_ids)
    ORDER BY server_id FOR NO KEY UPDATE) l;
  SELECT s.id INTO refused FROM unnest(server_ids) WITH ORDINALITY s(id, n)
  WHERE NOT (s.id = ANY(COALESCE(locked, '{}'))) ORDER BY s.n LIMIT 1;
  IF refused IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'SCN04', MESSAGE = refused;
  END IF;
  SELECT e.v->>'id' INTO refused FROM jsonb_array_elements(places) WITH ORDINALITY e(v, n)
  WHERE (SELECT count(*) FROM server_clients c WHERE c.server_id = (e.v->>'id')::uuid)
        >= COALESCE((e.v->>'capacity')::int,
                    (SELECT market_allowed_clients(t.tier, t.halving_cut) FROM servers t WHERE t.id = (e.v->>'id')::uuid))
  ORDER BY e.n LIMIT 1;
  IF refused IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'SCN09', MESSAGE = refused;
  END IF;

  WITH added AS (
    INSERT INTO server_clients (server_id, client_uuid)
    SELECT s, client FROM unnest(server_ids) s ORDER BY s
    ON CONFLICT DO NOTHING RETURNING server_id),
  bumped AS (
    UPDATE server_client_sets cs SET version = cs.version + 1
    FROM added WHERE cs.server_id = added.server_id RETURNING cs.server_id)
  SELECT array_agg(server_id ORDER BY server_id) INTO changed FROM bumped;
  PERFORM pg_notify(channel, c::text) FROM unnest(changed) c;
  RETURN COALESCE(changed, '{}');
END $$;
