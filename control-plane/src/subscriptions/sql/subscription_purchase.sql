-- One purchase, all or nothing (run by subscription_purchase_batch; the control plane priced and
-- checked it first: PurchaseWriter). A stored Idempotency-Key answers `replayed` and writes
-- nothing. Otherwise it takes the client's places on the servers (client_sets_take: SCN04 server
-- not found, SCN09 server full; the sets' version bump and NOTIFY come at commit), locks the
-- client's wallet and checks it covers the price (SCN02: message the balance, detail the amount
-- required), writes the ledger transactions (ledger_post), the subscription and its servers, and
-- stores the key with its answer (one write; a key taken meanwhile by a concurrent request rolls
-- the purchase back, answered as a replay: SCN00). The ledger's own triggers still keep every
-- balance equal to its entries, every transaction balanced and every wallet non-negative.
CREATE OR REPLACE FUNCTION subscription_purchase(p jsonb, channel text)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  owner uuid := (p->>'owner')::uuid;
  sub jsonb := p->'subscription';
  debit bigint := (p->>'debitMicro')::bigint;
  wallet uuid;
  balance bigint;
  changed uuid[];
BEGIN
  -- A key already stored (committed, or by an earlier purchase of this batch): a replay.
  IF p->>'key' IS NOT NULL AND EXISTS (
    SELECT 1 FROM idempotency_keys WHERE owner_uuid = owner AND key = p->>'key') THEN
    RETURN jsonb_build_object('replayed', true);
  END IF;

  changed := client_sets_take(p->'servers', (sub->>'vlessUuid')::uuid, channel);

  wallet := ledger_account_id('client_wallet', owner);
  SELECT balance_micro INTO balance FROM ledger_accounts WHERE id = wallet FOR UPDATE;
  IF balance < debit THEN
    RAISE EXCEPTION USING ERRCODE = 'SCN02', MESSAGE = balance::text, DETAIL = debit::text;
  END IF;
  PERFORM ledger_post(p->'transactions');
  SELECT balance_micro INTO balance FROM ledger_accounts WHERE id = wallet;

  WITH inserted AS (
    INSERT INTO subscriptions (id, owner_uuid, vless_uuid, status, billing_cycle, period_index,
      expires_at, url_token_hash, url_token_sealed, created_at, updated_at)
    VALUES ((sub->>'id')::uuid, owner, (sub->>'vlessUuid')::uuid, 'active', sub->>'billingCycle', 1,
      (sub->>'expiresAt')::timestamptz, sub->>'urlTokenHash', sub->>'urlTokenSealed',
      (sub->>'createdAt')::timestamptz, (sub->>'createdAt')::timestamptz)
    RETURNING id)
  INSERT INTO subscription_servers (subscription_id, server_id, position)
  SELECT inserted.id, (s.v->>'id')::uuid, s.n - 1
  FROM inserted, jsonb_array_elements(p->'servers') WITH ORDINALITY s(v, n);

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
                            'changedServers', to_jsonb(changed));
END $$;
