-- The two-character pieces of a listing's search text, for searches of two characters (the
-- market's search: a term is found anywhere in name, location or host). The trigram index
-- (ix_market_listings_search) cannot answer them: a term needs three characters to give a
-- trigram, and without one PostgreSQL reads every listing. Chinese country names are mostly two
-- characters (德国, 美国), and so are country codes. The expression index
-- ix_market_listings_search_pairs holds this function's result: a new body needs the index
-- rebuilt in the same migration.
-- Every pair starts at an odd or an even position: each string_to_array cuts the text (or the
-- text less its first character) after every second character, at an inserted U+0001. A pair
-- without U+0001 in it comes out whole (names and searches have no control characters); the
-- extra pieces (a last single character, '', pairs across a line break) are never searched for.
-- One expression, no query: an index expression is evaluated on every write of a listing that
-- is not a HOT update (reports move its sort columns), and a query in the body cost 7 times more
-- (82 against 12 microseconds a listing, bench/market's texts).
CREATE OR REPLACE FUNCTION market_search_pairs(search_text text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT string_to_array(regexp_replace(search_text, '(..)', E'\\1\x01', 'g'), E'\x01')
    || string_to_array(regexp_replace(substr(search_text, 2), '(..)', E'\\1\x01', 'g'), E'\x01')
$$;
