-- Purchases are written in batches (group commit), one statement per batch: the control plane
-- prices and checks each purchase, then this runs every purchase of the batch in its own
-- subtransaction, in order, and answers one result per purchase ({ ok } or { error: SQLSTATE,
-- message, detail }). A purchase that is refused (server gone or full, balance short) or fails
-- rolls back alone; the others commit together.
CREATE OR REPLACE FUNCTION subscription_purchase_batch(purchases jsonb, channel text)
RETURNS jsonb LANGUAGE plpgsql AS $$
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
END $$;
