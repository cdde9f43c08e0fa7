-- Adds listings' shares (rows of market_counts: +1 listed and its sums for a listing that enters
-- the counts, -1 and minus its sums for one that leaves) to the per-country counters, in country
-- order (concurrent writers cannot deadlock on them), skipping countries whose shares cancel out.
-- Called by the market_listings statement triggers (market_listings_count_*), so that
-- market_counts stays exact and totalPages, countries and stats never count 100,000 rows.
CREATE OR REPLACE FUNCTION market_counts_apply(shares market_counts[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO market_counts AS c (country, listed, reliability_sum, ping_sum, ping_count)
  SELECT d.country, sum(d.listed), sum(d.reliability_sum), sum(d.ping_sum), sum(d.ping_count)
  FROM unnest(shares) d
  GROUP BY d.country
  HAVING sum(d.listed) <> 0 OR sum(d.reliability_sum) <> 0 OR sum(d.ping_sum) <> 0 OR sum(d.ping_count) <> 0
  ORDER BY d.country
  ON CONFLICT (country) DO UPDATE SET listed = c.listed + EXCLUDED.listed,
    reliability_sum = c.reliability_sum + EXCLUDED.reliability_sum,
    ping_sum = c.ping_sum + EXCLUDED.ping_sum, ping_count = c.ping_count + EXCLUDED.ping_count;
END $$;
