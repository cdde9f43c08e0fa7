-- The market version: moves when a committed change alters what a page shows (MarketPageCache
-- keys on it). A sequence takes no lock, so it cannot make writers wait on each other, and the
-- deferred triggers market_listings_version_* move it at commit, when the change becomes visible.
CREATE OR REPLACE FUNCTION market_bump_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('market_version_seq');
  RETURN NULL;
END $$;
