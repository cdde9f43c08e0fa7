-- docs/product/states.md#market-and-account-states: promoted servers are listed higher promotions first, then newer ones. The key of
-- "higher" is what was paid for the promotion running now (trigger market_listings_promotion,
-- after market_listings_derive, which leaves promoted and premium as they are): null unless the
-- server is promoted and not premium, so it orders nothing outside the promoted group.
CREATE OR REPLACE FUNCTION market_listing_promotion() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.sort_promotion_micro := CASE WHEN NEW.promoted AND NOT NEW.premium THEN NEW.promotion_micro END;
  RETURN NEW;
END $$;
