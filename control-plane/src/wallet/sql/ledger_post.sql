-- The only writer of ledger_transactions and ledger_entries (LedgerService.lockAndPostTogether through
-- WalletRepository.insertTransactions, and subscription_purchase): writes balanced movements,
-- given as a JSON array of
--   { id, type, initiatorUuid, subscriptionId, serverCount, duration, description,
--     descriptionCode, descriptionValues, externalRef,
--     entries: [{ accountId | kind + owner, amountMicro, frozenUntil }] }
-- in one statement. Entries go in account-id order (then in the order given), so concurrent
-- writers lock the wallets they touch, through the balance trigger, in one global order (no
-- deadlocks). The callers lock and check the wallets they debit first (a short balance is their
-- refusal); the ledger's triggers keep every balance equal to its entries, every transaction
-- balanced at commit and every wallet non-negative whatever a caller does.
-- The transaction rows are built as the table's row type (jsonb_populate_record ignores a key
-- the table lacks), so the genesis (migration 2400, before migration 3500 added the description
-- code) is written by this body too.
CREATE OR REPLACE FUNCTION ledger_post(transactions jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH t AS (
    INSERT INTO ledger_transactions
    SELECT r.* FROM jsonb_array_elements(transactions) t,
      jsonb_populate_record(NULL::ledger_transactions, jsonb_build_object(
        'id', t->'id', 'type', t->'type', 'initiator_uuid', t->'initiatorUuid',
        'subscription_id', t->'subscriptionId', 'server_count', t->'serverCount',
        'duration', t->'duration', 'description', t->'description',
        'description_code', t->'descriptionCode', 'description_values', t->'descriptionValues',
        'external_ref', t->'externalRef', 'created_at', now())) r
    RETURNING id)
  INSERT INTO ledger_entries (transaction_id, account_id, amount_micro, frozen_until)
  SELECT e.transaction_id, e.account_id, e.amount_micro, e.frozen_until FROM (
    SELECT (tx->>'id')::uuid AS transaction_id,
           COALESCE((x->>'accountId')::uuid, ledger_account_id(x->>'kind', (x->>'owner')::uuid)) AS account_id,
           (x->>'amountMicro')::bigint AS amount_micro, (x->>'frozenUntil')::timestamptz AS frozen_until,
           tn, xn
    FROM jsonb_array_elements(transactions) WITH ORDINALITY AS txs(tx, tn),
         jsonb_array_elements(tx->'entries') WITH ORDINALITY AS xs(x, xn)) e
  JOIN t ON t.id = e.transaction_id
  ORDER BY e.account_id, e.tn, e.xn;
END $$;
