-- The SQL functions of a database migrated to 1764000001300 (before migration 1800 moved every
-- body into src/<domain>/sql), as pg_get_functiondef printed them: sql-functions.db-spec puts
-- them back on a database migrated to 1300 to test the upgrade. A record, never edited.
CREATE OR REPLACE FUNCTION public.ledger_account_id(account_kind character varying, owner uuid)
 RETURNS uuid
 LANGUAGE plpgsql
AS $function$
DECLARE account uuid;
BEGIN
  SELECT id INTO account FROM ledger_accounts WHERE kind = account_kind AND owner_uuid = owner;
  IF FOUND THEN RETURN account; END IF;
  -- ON CONFLICT DO NOTHING waits for a concurrent creator; the next statement sees its row.
  INSERT INTO ledger_accounts (id, kind, owner_uuid) VALUES (gen_random_uuid(), account_kind, owner)
  ON CONFLICT (kind, owner_uuid) DO NOTHING;
  SELECT id INTO account FROM ledger_accounts WHERE kind = account_kind AND owner_uuid = owner;
  RETURN account;
END $function$

;

CREATE OR REPLACE FUNCTION public.ledger_append_only()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION 'the ledger is append-only (% on %)', TG_OP, TG_TABLE_NAME USING ERRCODE = '42501';
END $function$

;

CREATE OR REPLACE FUNCTION public.ledger_apply_entry()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  -- System accounts are summed when read: updating their row would serialise every payment.
  UPDATE ledger_accounts SET balance_micro = balance_micro + NEW.amount_micro
  WHERE id = NEW.account_id AND kind IN ('client_wallet', 'node_wallet');
  RETURN NEW;
END $function$

;

CREATE OR REPLACE FUNCTION public.ledger_check_balanced()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE total numeric;
BEGIN
  SELECT COALESCE(sum(amount_micro), 0) INTO total FROM ledger_entries WHERE transaction_id = NEW.transaction_id;
  IF total <> 0 THEN
    RAISE EXCEPTION 'ledger transaction % does not balance (sum %)', NEW.transaction_id, total USING ERRCODE = '23514';
  END IF;
  RETURN NULL;
END $function$

;

CREATE OR REPLACE FUNCTION public.market_bump_version()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM nextval('market_version_seq');
  RETURN NULL;
END $function$

;

CREATE OR REPLACE FUNCTION public.market_capacity(tier character varying)
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE tier WHEN 'tier1' THEN 10 WHEN 'tier2' THEN 25 WHEN 'tier3' THEN 60 WHEN 'tier4' THEN 140 ELSE 10 END
$function$

;

CREATE OR REPLACE FUNCTION public.market_listing_derive()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  NEW.listed := NOT NEW.banned AND NEW.has_address AND NEW.reliability >= 95;
  NEW.disabled := NEW.stale OR NEW.reliability < 50 OR NEW.core_down OR NEW.allowed_clients >= NEW.capacity;
  NEW.sort_group := (CASE WHEN NEW.disabled THEN 3 ELSE 0 END)
    + (CASE WHEN NEW.premium THEN 0 WHEN NEW.promoted THEN 1 ELSE 2 END);
  NEW.sort_promoted_at := CASE WHEN NEW.promoted AND NOT NEW.premium THEN NEW.promoted_at END;
  NEW.sort_reliability := CASE WHEN NEW.disabled THEN 0 WHEN NEW.premium THEN 100 ELSE NEW.reliability END;
  RETURN NEW;
END $function$

;

CREATE OR REPLACE FUNCTION public.market_listing_free()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  NEW.free := EXISTS (SELECT 1 FROM servers WHERE id = NEW.server_id AND source = 'manual');
  RETURN NEW;
END $function$

;

CREATE OR REPLACE FUNCTION public.market_listings_count_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO market_counts AS c (country, listed, reliability_sum, ping_sum, ping_count)
  SELECT d.country, sum(d.listed), sum(d.reliability_sum), sum(d.ping_sum), sum(d.ping_count)
  FROM (
    SELECT ''::text AS country, 0 AS listed, 0 AS reliability_sum, 0::bigint AS ping_sum, 0 AS ping_count WHERE false
    
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
END $function$

;

CREATE OR REPLACE FUNCTION public.market_listings_count_inserted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO market_counts AS c (country, listed, reliability_sum, ping_sum, ping_count)
  SELECT d.country, sum(d.listed), sum(d.reliability_sum), sum(d.ping_sum), sum(d.ping_count)
  FROM (
    SELECT ''::text AS country, 0 AS listed, 0 AS reliability_sum, 0::bigint AS ping_sum, 0 AS ping_count WHERE false
    UNION ALL SELECT COALESCE(country, '')::text AS country, 1 AS listed, 1 * reliability AS reliability_sum,
     1 * COALESCE(ping_ms, 0)::bigint AS ping_sum, 1 * (ping_ms IS NOT NULL)::int AS ping_count
   FROM new_rows WHERE listed
    
  ) d
  GROUP BY d.country
  HAVING sum(d.listed) <> 0 OR sum(d.reliability_sum) <> 0 OR sum(d.ping_sum) <> 0 OR sum(d.ping_count) <> 0
  ORDER BY d.country
  ON CONFLICT (country) DO UPDATE SET listed = c.listed + EXCLUDED.listed,
    reliability_sum = c.reliability_sum + EXCLUDED.reliability_sum,
    ping_sum = c.ping_sum + EXCLUDED.ping_sum, ping_count = c.ping_count + EXCLUDED.ping_count;
  RETURN NULL;
END $function$

;

CREATE OR REPLACE FUNCTION public.market_listings_count_updated()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
END $function$

;

CREATE OR REPLACE FUNCTION public.market_server_clients_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH d AS (SELECT server_id, count(*)::int AS n FROM new_rows GROUP BY server_id),
    locked AS (SELECT l.server_id, d.n FROM market_listings l JOIN d ON d.server_id = l.server_id
               ORDER BY l.server_id FOR UPDATE OF l)
    UPDATE market_listings l SET allowed_clients = l.allowed_clients + k.n FROM locked k WHERE l.server_id = k.server_id;
  ELSE
    WITH d AS (SELECT server_id, count(*)::int AS n FROM old_rows GROUP BY server_id),
    locked AS (SELECT l.server_id, d.n FROM market_listings l JOIN d ON d.server_id = l.server_id
               ORDER BY l.server_id FOR UPDATE OF l)
    UPDATE market_listings l SET allowed_clients = GREATEST(0, l.allowed_clients - k.n) FROM locked k WHERE l.server_id = k.server_id;
  END IF;
  RETURN NULL;
END $function$

;

CREATE OR REPLACE FUNCTION public.market_servers_inserted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO market_listings (server_id, country, search_text, ping_ms, uptime_hours, capacity, banned,
                               has_address, core_down, last_report_at, reliability, stale, premium)
  SELECT n.id, n.country, lower(concat_ws(E'\n', n.name, n.location, n.host)) AS search_text, n.ping_ms,
    (n.uptime_seconds / 3600)::int AS uptime_hours, market_capacity(n.tier) AS capacity,
    n.banned_at IS NOT NULL AS banned, (n.host IS NOT NULL AND n.port IS NOT NULL) AS has_address,
    COALESCE(n.core_state IN ('stopped', 'failed', 'absent'), false) AS core_down, n.last_report_at,
    CASE WHEN n.last_report_at IS NULL THEN 0 ELSE n.reliability_at_report END,
    n.last_report_at IS NULL,
    EXISTS (SELECT 1 FROM market_settings m JOIN accounts a ON a.email = m.platform_operator_email
     WHERE a.uuid = n.owner_uuid)
  FROM new_rows n;
  RETURN NULL;
END $function$

;

CREATE OR REPLACE FUNCTION public.market_servers_updated()
 RETURNS trigger
 LANGUAGE plpgsql
 SET random_page_cost TO '1.1'
AS $function$
BEGIN
  IF NOT EXISTS (
    WITH v AS (
    SELECT n.id, n.country, lower(concat_ws(E'\n', n.name, n.location, n.host)) AS search_text, n.ping_ms,
    (n.uptime_seconds / 3600)::int AS uptime_hours, market_capacity(n.tier) AS capacity,
    n.banned_at IS NOT NULL AS banned, (n.host IS NOT NULL AND n.port IS NOT NULL) AS has_address,
    COALESCE(n.core_state IN ('stopped', 'failed', 'absent'), false) AS core_down, n.last_report_at, n.reliability_at_report,
    n.last_report_at IS NOT NULL AS fresh
    FROM new_rows n
  )
    SELECT 1 FROM v JOIN market_listings l ON l.server_id = v.id WHERE (l.country, l.search_text, l.uptime_hours, l.capacity, l.banned, l.has_address, l.core_down)
          IS DISTINCT FROM (v.country, v.search_text, v.uptime_hours, v.capacity, v.banned, v.has_address, v.core_down)
       OR (l.ping_ms IS NULL) <> (v.ping_ms IS NULL)
       OR abs(l.ping_ms - v.ping_ms) > GREATEST(5, l.ping_ms / 10)
       OR (v.fresh AND (l.stale OR l.reliability IS DISTINCT FROM v.reliability_at_report
                        OR l.last_report_at IS NULL
                        OR v.last_report_at - l.last_report_at >= interval '5 minutes'))
  ) THEN
    RETURN NULL;
  END IF;
  WITH v AS (
    SELECT n.id, n.country, lower(concat_ws(E'\n', n.name, n.location, n.host)) AS search_text, n.ping_ms,
    (n.uptime_seconds / 3600)::int AS uptime_hours, market_capacity(n.tier) AS capacity,
    n.banned_at IS NOT NULL AS banned, (n.host IS NOT NULL AND n.port IS NOT NULL) AS has_address,
    COALESCE(n.core_state IN ('stopped', 'failed', 'absent'), false) AS core_down, n.last_report_at, n.reliability_at_report,
      n.last_report_at IS NOT NULL AND (n.last_report_at IS DISTINCT FROM o.last_report_at
        OR n.reliability_at_report <> o.reliability_at_report) AS fresh
    FROM new_rows n JOIN old_rows o ON o.id = n.id
  ), changed AS (
    SELECT v.* FROM v JOIN market_listings l ON l.server_id = v.id
    WHERE (l.country, l.search_text, l.uptime_hours, l.capacity, l.banned, l.has_address, l.core_down)
          IS DISTINCT FROM (v.country, v.search_text, v.uptime_hours, v.capacity, v.banned, v.has_address, v.core_down)
       OR (l.ping_ms IS NULL) <> (v.ping_ms IS NULL)
       OR abs(l.ping_ms - v.ping_ms) > GREATEST(5, l.ping_ms / 10)
       OR (v.fresh AND (l.stale OR l.reliability IS DISTINCT FROM v.reliability_at_report
                        OR l.last_report_at IS NULL
                        OR v.last_report_at - l.last_report_at >= interval '5 minutes'))
    ORDER BY v.id
    FOR UPDATE OF l
  )
  UPDATE market_listings l SET
    country = c.country, search_text = c.search_text, ping_ms = c.ping_ms, uptime_hours = c.uptime_hours,
    capacity = c.capacity, banned = c.banned, has_address = c.has_address, core_down = c.core_down,
    last_report_at = c.last_report_at,
    reliability = CASE WHEN c.fresh THEN c.reliability_at_report ELSE l.reliability END,
    stale = CASE WHEN c.fresh THEN false ELSE l.stale END
  FROM changed c WHERE l.server_id = c.id;
  RETURN NULL;
END $function$

;

CREATE OR REPLACE FUNCTION public.rate_limit_take(p_buckets text[], p_limits integer[], p_windows_ms bigint[], p_at timestamp with time zone)
 RETURNS TABLE(refused_bucket text, retry_after_ms bigint)
 LANGUAGE plpgsql
AS $function$
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
      $function$

;

CREATE OR REPLACE FUNCTION public.server_client_sets_created()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
       BEGIN
         INSERT INTO server_client_sets (server_id) SELECT id FROM new_rows;
         RETURN NULL;
       END $function$

;

CREATE OR REPLACE FUNCTION public.subscription_purchase(p jsonb, channel text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  owner uuid := (p->>'owner')::uuid;
  sub jsonb := p->'subscription';
  server_ids uuid[] := ARRAY(SELECT (s->>'id')::uuid FROM jsonb_array_elements(p->'servers') s);
  debit bigint := (p->>'debitMicro')::bigint;
  locked uuid[];
  refused text;
  wallet uuid;
  balance bigint;
  changed uuid[];
BEGIN
  -- A key already stored (committed, or by an earlier purchase of this batch): a replay.
  IF p->>'key' IS NOT NULL AND EXISTS (
    SELECT 1 FROM idempotency_keys WHERE owner_uuid = owner AND key = p->>'key') THEN
    RETURN jsonb_build_object('replayed', true);
  END IF;

  -- Client sets locked in id order (no deadlocks between purchases); the servers rows are not,
  -- so agent report batches never wait for a purchase.
  SELECT array_agg(server_id) INTO locked FROM (
    SELECT server_id FROM server_client_sets WHERE server_id = ANY(server_ids)
    ORDER BY server_id FOR NO KEY UPDATE) l;
  SELECT s.id INTO refused FROM unnest(server_ids) WITH ORDINALITY s(id, n)
  WHERE NOT (s.id = ANY(COALESCE(locked, '{}'))) ORDER BY s.n LIMIT 1;
  IF refused IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'SCN04', MESSAGE = refused;
  END IF;
  -- Every place counts, paused ones too (they keep their slots); run after the lock, so it
  -- sees every client committed meanwhile.
  SELECT e.v->>'id' INTO refused FROM jsonb_array_elements(p->'servers') WITH ORDINALITY e(v, n)
  WHERE (SELECT count(*) FROM server_clients c WHERE c.server_id = (e.v->>'id')::uuid)
        >= (e.v->>'capacity')::int
  ORDER BY e.n LIMIT 1;
  IF refused IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'SCN09', MESSAGE = refused;
  END IF;

  wallet := ledger_account_id('client_wallet', owner);
  SELECT balance_micro INTO balance FROM ledger_accounts WHERE id = wallet FOR UPDATE;
  IF balance < debit THEN
    RAISE EXCEPTION USING ERRCODE = 'SCN02', MESSAGE = balance::text, DETAIL = debit::text;
  END IF;

  -- The transactions and their entries in one statement.
  WITH t AS (
    INSERT INTO ledger_transactions
      (id, type, initiator_uuid, subscription_id, server_count, duration, description, external_ref)
    SELECT (t->>'id')::uuid, t->>'type', (t->>'initiatorUuid')::uuid, (t->>'subscriptionId')::uuid,
           (t->>'serverCount')::int, t->>'duration', t->>'description', t->>'externalRef'
    FROM jsonb_array_elements(p->'transactions') t
    RETURNING id)
  INSERT INTO ledger_entries (transaction_id, account_id, amount_micro, frozen_until)
  SELECT e.transaction_id, e.account_id, e.amount_micro, e.frozen_until FROM (
    SELECT (t->>'id')::uuid AS transaction_id,
           ledger_account_id(x->>'kind', (x->>'owner')::uuid) AS account_id,
           (x->>'amountMicro')::bigint AS amount_micro, (x->>'frozenUntil')::timestamptz AS frozen_until
    FROM jsonb_array_elements(p->'transactions') t, jsonb_array_elements(t->'entries') x) e
  JOIN t ON t.id = e.transaction_id
  ORDER BY e.account_id;
  SELECT balance_micro INTO balance FROM ledger_accounts WHERE id = wallet;

  WITH inserted AS (
    INSERT INTO subscriptions (id, owner_uuid, vless_uuid, status, billing_cycle, period_index,
      expires_at, url_token_hash, url_token_sealed, created_at, updated_at)
    VALUES ((sub->>'id')::uuid, owner, (sub->>'vlessUuid')::uuid, 'active', sub->>'billingCycle', 1,
      (sub->>'expiresAt')::timestamptz, sub->>'urlTokenHash', sub->>'urlTokenSealed',
      (sub->>'createdAt')::timestamptz, (sub->>'createdAt')::timestamptz)
    RETURNING id)
  INSERT INTO subscription_servers (subscription_id, server_id, position)
  SELECT inserted.id, s.id, s.n - 1 FROM inserted, unnest(server_ids) WITH ORDINALITY s(id, n);

  WITH added AS (
    INSERT INTO server_clients (server_id, client_uuid)
    SELECT s, (sub->>'vlessUuid')::uuid FROM unnest(server_ids) s ORDER BY s
    ON CONFLICT DO NOTHING RETURNING server_id),
  bumped AS (
    UPDATE server_client_sets cs SET version = cs.version + 1
    FROM added WHERE cs.server_id = added.server_id RETURNING cs.server_id)
  SELECT array_agg(server_id ORDER BY server_id) INTO changed FROM bumped;
  PERFORM pg_notify(channel, c::text) FROM unnest(changed) c;

  -- The key is stored with the answer, once. A request with the same key still running
  -- elsewhere makes this wait for it: if it commits first, this purchase is rolled back and
  -- answered as a replay of it (SCN00).
  IF p->>'key' IS NOT NULL THEN
    INSERT INTO idempotency_keys (owner_uuid, key, request_hash, status_code, response)
    VALUES (owner, p->>'key', p->>'requestHash', 200,
            (p->'response') || jsonb_build_object('balanceMicro', balance::text))
    ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
      RAISE EXCEPTION USING ERRCODE = 'SCN00', MESSAGE = 'idempotency key taken meanwhile';
    END IF;
  END IF;
  RETURN jsonb_build_object('replayed', false, 'balanceMicro', balance::text,
                            'changedServers', to_jsonb(COALESCE(changed, '{}')));
END $function$

;

CREATE OR REPLACE FUNCTION public.subscription_purchase_batch(purchases jsonb, channel text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  purchase jsonb;
  results jsonb[] := '{}';
  state text;
  message text;
  detail text;
BEGIN
  -- Every row lock the purchases will take, taken first and each kind in id order: client sets,
  -- market listings, wallets (the order of a single purchase). The purchases of a batch come in
  -- any order: without this the batch could hold one row and wait for another that a concurrent
  -- transaction locking in id order (a report batch, a pause, an activation, another replica's
  -- batch) holds while waiting for the first, a deadlock PostgreSQL breaks only after a second.
  -- (A wallet created by a purchase did not exist before it: nobody else can hold it.)
  PERFORM 1 FROM server_client_sets WHERE server_id IN (
    SELECT (s->>'id')::uuid FROM jsonb_array_elements(purchases) p, jsonb_array_elements(p->'servers') s)
  ORDER BY server_id FOR NO KEY UPDATE;
  PERFORM 1 FROM market_listings WHERE server_id IN (
    SELECT (s->>'id')::uuid FROM jsonb_array_elements(purchases) p, jsonb_array_elements(p->'servers') s)
  ORDER BY server_id FOR UPDATE;
  PERFORM 1 FROM ledger_accounts a JOIN (
    SELECT 'client_wallet' AS kind, (p->>'owner')::uuid AS owner FROM jsonb_array_elements(purchases) p
    UNION
    SELECT x->>'kind', (x->>'owner')::uuid
    FROM jsonb_array_elements(purchases) p, jsonb_array_elements(p->'transactions') t,
         jsonb_array_elements(t->'entries') x
    WHERE x->>'kind' IN ('client_wallet', 'node_wallet')) w ON a.kind = w.kind AND a.owner_uuid = w.owner
  ORDER BY a.id FOR UPDATE OF a;

  FOR purchase IN SELECT value FROM jsonb_array_elements(purchases) LOOP
    BEGIN
      results := results || jsonb_build_object('ok', subscription_purchase(purchase, channel));
    EXCEPTION WHEN OTHERS THEN
      -- This purchase's subtransaction is rolled back (its locks too); the batch goes on.
      GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT,
                              detail = PG_EXCEPTION_DETAIL;
      results := results || jsonb_build_object('error', state, 'message', message, 'detail', detail);
    END;
  END LOOP;
  RETURN to_jsonb(results);
END $function$

;

