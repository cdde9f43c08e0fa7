-- Sort by price (docs/product/constants.md#market-prices-and-limits): a listing is free when its server was added without
-- the agent. A server's source never changes, so this is set once, when the servers INSERT
-- trigger creates the listing (trigger market_listings_free).
CREATE OR REPLACE FUNCTION market_listing_free() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.free := EXISTS (SELECT 1 FROM servers WHERE id = NEW.server_id AND source = 'manual');
  RETURN NEW;
END $$;
