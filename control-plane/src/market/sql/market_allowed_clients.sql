-- The one capacity rule of the market and of every place a client takes (client_sets_take): a
-- server takes at most its tier's max clients (market_capacity), halved while halving protection
-- cuts it (docs/product/states.md#subscription-and-reliability-states: servers.halving_cut, set from each monthly statement; the
-- same rule as allowedClients of rewards/reward-rules.ts, the cut from ECONOMICS).
CREATE OR REPLACE FUNCTION market_allowed_clients(tier varchar, halving_cut boolean) RETURNS int
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN halving_cut THEN market_capacity(tier) * (100 - {{hardwareAgeCutPercent}}) / 100
              ELSE market_capacity(tier) END
$$;
