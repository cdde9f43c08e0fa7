-- Sliding-window rate limits, the whole check in one statement, so replicas racing
-- on one bucket cannot both take its last slot: locks each bucket's row (creating it if need be)
-- in bucket order, so overlapping calls never deadlock; then either refuses, naming every bucket
-- that is full and when its oldest counted request leaves the window, or records the request in
-- all of them. A refused request is recorded nowhere.
CREATE OR REPLACE FUNCTION rate_limit_take(
  p_buckets text[], p_limits int[], p_windows_ms bigint[], p_at timestamptz
) RETURNS TABLE (refused_bucket text, retry_after_ms bigint)
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO rate_limit_buckets AS b (bucket, hits, expires_at)
    SELECT t.bucket, '{}', p_at FROM unnest(p_buckets) AS t(bucket) ORDER BY t.bucket
    ON CONFLICT (bucket) DO UPDATE SET expires_at = b.expires_at;

  RETURN QUERY
    WITH input AS (
      SELECT t.bucket, t.lim, t.window_ms * interval '1 millisecond' AS win
      FROM unnest(p_buckets, p_limits, p_windows_ms) AS t(bucket, lim, window_ms)
    ), live AS (
      SELECT i.bucket, i.lim, i.win,
        ARRAY(SELECT h FROM unnest(b.hits) AS h WHERE h > p_at - i.win ORDER BY h) AS hits
      FROM input i JOIN rate_limit_buckets b ON b.bucket = i.bucket
    )
    SELECT l.bucket::text,
      ceil(extract(epoch FROM l.hits[cardinality(l.hits) - l.lim + 1] + l.win - p_at) * 1000)::bigint
    FROM live l WHERE cardinality(l.hits) >= l.lim;
  IF FOUND THEN
    RETURN;
  END IF;

  UPDATE rate_limit_buckets AS b
    SET hits = ARRAY(SELECT h FROM unnest(b.hits) AS h WHERE h > p_at - i.win ORDER BY h) || p_at,
        expires_at = greatest(b.expires_at, p_at + i.win)
    FROM (
      SELECT t.bucket, t.window_ms * interval '1 millisecond' AS win
      FROM unnest(p_buckets, p_windows_ms) AS t(bucket, window_ms)
    ) i
    WHERE b.bucket = i.bucket;
END
$$;
