-- The ledger keeps every owned account's balance (wallets, stakes, reward escrows) equal to the
-- sum of its entries: each entry moves its account's balance in the statement that inserts it
-- (trigger ledger_entries_apply); their CHECK refuses a negative balance.
CREATE OR REPLACE FUNCTION ledger_apply_entry() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- System accounts are summed when read: updating their row would serialise every payment.
  UPDATE ledger_accounts SET balance_micro = balance_micro + NEW.amount_micro
  WHERE id = NEW.account_id AND kind IN ('client_wallet', 'node_wallet', 'stake', 'reward_escrow');
  RETURN NEW;
END $$;
