-- The two-character pieces of a listing's search text, for searches of one or two characters
-- (the market's search: a term of two characters is found anywhere in name, location or host).
-- The trigram index (ix_market_listings_search) cannot answer them: a term needs three
-- characters to give a trigram, and without one PostgreSQL reads every listing. Chinese country
-- names are mostly two characters (德国, 美国), and so are country codes. The expression index
-- ix_market_listings_search_pairs holds this function's result: a new body needs the index
-- rebuilt in the same migration. Pieces across a line break are left out: a search has none.
CREATE OR REPLACE FUNCTION market_search_pairs(search_text text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT ARRAY(
    SELECT DISTINCT substr(search_text, i, 2)
    FROM generate_series(1, char_length(search_text) - 1) AS i
    WHERE position(E'\n' IN substr(search_text, i, 2)) = 0
  )
$$;
