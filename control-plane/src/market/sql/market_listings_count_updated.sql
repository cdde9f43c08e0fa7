-- market_counts stay exact: an update takes the old rows' share out and puts the new rows' in
-- (statement trigger market_listings_counted_update). Counters are written in country order.
CREATE OR REPLACE FUNCTION market_listings_count_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO market_counts AS c (country, listed, reliability_sum, ping_sum, ping_count)
  SELECT d.country, sum(d.listed), sum(d.reliability_sum), sum(d.ping_sum), sum(d.ping_count)
  FROM (
    SELECT ''::text AS country, 0 AS listed, 0 AS reliability_sum, 0::bigint AS ping_sum, 0 AS ping_count WHERE false
    UNION ALL SELECT COALESCE(country, '')::text AS country, 1 AS listed, 1 * reliability AS reliability_sum,
     1 * COALESCE(ping_ms, 0)::bigint AS ping_sum, 1 * (ping_ms IS NOT NULL)::int AS ping_count
   FROM new_rows WHERE listed
    UNION ALL SELECT COALESCE(country, '')::text AS country, -1 AS listed, -1 * reliability AS reliability_sum,
     -1 * COALESCE(ping_ms, 0)::bigint AS ping_sum, -1 * (ping_ms IS NOT NULL)::int AS ping_count
   FROM old_rows WHERE listed
  ) d
  GROUP BY d.country
  HAVING sum(d.listed) <> 0 OR sum(d.reliability_sum) <> 0 OR sum(d.ping_sum) <> 0 OR sum(d.ping_count) <> 0
  ORDER BY d.country
  ON CONFLICT (country) DO UPDATE SET listed = c.listed + EXCLUDED.listed,
    reliability_sum = c.reliability_sum + EXCLUDED.reliability_sum,
    ping_sum = c.ping_sum + EXCLUDED.ping_sum, ping_count = c.ping_count + EXCLUDED.ping_count;
  RETURN NULL;
END $$;
