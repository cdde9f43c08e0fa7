-- A server whose tier or halving cut changed gets its listing's capacity again (trigger
-- market_servers_capacity, AFTER UPDATE OF tier, halving_cut, only for rows where one of them
-- changed: agent report batches never set them, so they never fire it). The listing's derived
-- columns follow (market_listing_derive: full when allowed clients reach the capacity).
CREATE OR REPLACE FUNCTION market_server_capacity_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE market_listings SET capacity = market_allowed_clients(NEW.tier, NEW.halving_cut)
  WHERE server_id = NEW.id AND capacity <> market_allowed_clients(NEW.tier, NEW.halving_cut);
  RETURN NULL;
END $$;
