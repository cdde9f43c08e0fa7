-- Updated listings take their old share out of market_counts and put the new one in (statement
-- trigger market_listings_counted_update).
CREATE OR REPLACE FUNCTION market_listings_count_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM market_counts_apply(ARRAY(
    SELECT ROW(COALESCE(country, ''), 1, reliability, COALESCE(ping_ms, 0), (ping_ms IS NOT NULL)::int)::market_counts
    FROM new_rows WHERE listed
    UNION ALL
    SELECT ROW(COALESCE(country, ''), -1, -reliability, -COALESCE(ping_ms, 0), -(ping_ms IS NOT NULL)::int)::market_counts
    FROM old_rows WHERE listed));
  RETURN NULL;
END $$;
