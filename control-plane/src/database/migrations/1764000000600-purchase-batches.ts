import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Purchases are written in batches (group commit), one statement per batch: the control plane
 * prices and checks each purchase, then `subscription_purchase_batch` runs every purchase of the
 * batch in its own subtransaction, in order, and answers one result per purchase. A purchase
 * that is refused (server gone or full, balance short) or fails rolls back alone; the others
 * commit together. Before, a purchase was 11 round trips between the control plane and
 * PostgreSQL, each a pair of system calls on both sides and most of the purchase's CPU.
 *
 * `subscription_purchase` is one purchase, all or nothing. A stored Idempotency-Key answers
 * `replayed` and writes nothing. Otherwise it locks the servers' client sets (id order) and
 * checks their capacity, locks the client's wallet and checks it covers the price, writes the
 * ledger transactions (entries in account id order: wallets are locked in one global order), the
 * subscription and its servers, adds its uuid to the client sets (version bump and NOTIFY at
 * commit), and stores the key with its answer (one write; a key taken meanwhile by a concurrent
 * request rolls the purchase back, answered as a replay: SCN00).
 *
 * The ledger's own triggers still keep every balance equal to its entries, every transaction
 * balanced and every wallet non-negative: this function cannot get around them.
 *
 * Refusals are raised with SQLSTATEs of our own: SCN00 (the key was taken meanwhile), SCN04
 * (server not found; message: its id), SCN09 (server full; message: its id), SCN02
 * (insufficient balance; message: the balance, detail: the amount required).
 */
export class PurchaseBatches1764000000600 implements MigrationInterface {
  name = 'PurchaseBatches1764000000600';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE FUNCTION ledger_account_id(account_kind varchar, owner uuid)
RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE account uuid;
BEGIN
  SELECT id INTO account FROM ledger_accounts WHERE kind = account_kind AND owner_uuid = owner;
  IF FOUND THEN RETURN account; END IF;
  -- ON CONFLICT DO NOTHING waits for a concurrent creator; the next statement sees its row.
  INSERT INTO ledger_accounts (id, kind, owner_uuid) VALUES (gen_random_uuid(), account_kind, owner)
  ON CONFLICT (kind, owner_uuid) DO NOTHING;
  SELECT id INTO account FROM ledger_accounts WHERE kind = account_kind AND owner_uuid = owner;
  RETURN account;
END $$`);

    await queryRunner.query(`CREATE FUNCTION subscription_purchase(p jsonb, channel text)
RETURNS jsonb LANGUAGE plpgsql AS $$
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
END $$`);

    await queryRunner.query(`CREATE FUNCTION subscription_purchase_batch(purchases jsonb, channel text)
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
END $$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION subscription_purchase_batch(jsonb, text)`);
    await queryRunner.query(`DROP FUNCTION subscription_purchase(jsonb, text)`);
    await queryRunner.query(`DROP FUNCTION ledger_account_id(varchar, uuid)`);
  }
}
