-- What a market listing shows, derived from its columns before every write (trigger
-- market_listings_derive): docs/product/states.md#subscription-and-reliability-states (hidden below 95, banned, no address), docs/product/states.md#market-and-account-states
-- (disabled: stale, below 50, core down or full), docs/product/constants.md#market-prices-and-limits (the order's groups), and the
-- order's score with reachability.
CREATE OR REPLACE FUNCTION market_listing_derive() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.listed := NOT NEW.banned AND NEW.has_address AND NEW.reliability >= {{hideBelowReliabilityPercent}};
  NEW.disabled := NEW.stale OR NEW.reliability < {{availableAtReliability}} OR NEW.core_down OR NEW.allowed_clients >= NEW.capacity;
  NEW.sort_group := (CASE WHEN NEW.disabled THEN 3 ELSE 0 END)
    + (CASE WHEN NEW.premium THEN 0 WHEN NEW.promoted THEN 1 ELSE 2 END);
  NEW.sort_promoted_at := CASE WHEN NEW.promoted AND NOT NEW.premium THEN NEW.promoted_at END;
  -- The order's score (docs/reachability.md#market-order): reliability, less half the share of
  -- the measured networks where the server is blocked (reach_penalty, 0 to 50).
  NEW.sort_reliability := CASE WHEN NEW.disabled THEN 0 WHEN NEW.premium THEN 100
    ELSE NEW.reliability * (100 - NEW.reach_penalty) / 100 END;
  RETURN NEW;
END $$;
