-- Deleted listings that were listed take their share out of market_counts (statement trigger
-- market_listings_counted_delete).
CREATE OR REPLACE FUNCTION market_listings_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM market_counts_apply(ARRAY(
    SELECT ROW(COALESCE(country, ''), -1, -reliability, -COALESCE(ping_ms, 0), -(ping_ms IS NOT NULL)::int)::market_counts
    FROM old_rows WHERE listed));
  RETURN NULL;
END $$;
