-- The id of the ledger account of a kind and owner, created (empty) if missing: the SQL twin of
-- WalletRepository.accountId.
CREATE OR REPLACE FUNCTION ledger_account_id(account_kind varchar, owner uuid)
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
END $$;
