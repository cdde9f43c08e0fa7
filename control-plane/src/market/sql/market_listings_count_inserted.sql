-- Inserted listings that are listed add their share to market_counts (statement trigger
-- market_listings_counted_insert).
CREATE OR REPLACE FUNCTION market_listings_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM market_counts_apply(ARRAY(
    SELECT ROW(COALESCE(country, ''), 1, reliability, COALESCE(ping_ms, 0), (ping_ms IS NOT NULL)::int)::market_counts
    FROM new_rows WHERE listed));
  RETURN NULL;
END $$;
