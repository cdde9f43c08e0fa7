-- docs/product/constants.md#market-prices-and-limits: a server takes at most its tier's max clients (VPS_TIERS of @scn/proto); a server
-- without a tier (added without the agent) counts as the first tier.
CREATE OR REPLACE FUNCTION market_capacity(tier varchar) RETURNS int LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE tier {{tierCapacityCases}} ELSE {{defaultTierCapacity}} END
$$;
