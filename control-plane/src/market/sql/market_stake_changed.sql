-- An operator's stake that fills from 0 or empties to 0 (trigger market_listings_stake on
-- ledger_accounts, a row trigger whose WHEN fires it only then) marks the listings of the
-- operator's servers staker or not, in the statement that moved the stake: the listing never
-- disagrees with the ledger. The stake calls lock those listings before the wallets
-- (StakingRepository.lockListings), the order a purchase takes them in.
CREATE OR REPLACE FUNCTION market_stake_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE market_listings l SET staker = NEW.balance_micro > 0
  FROM servers s
  WHERE s.owner_uuid = NEW.owner_uuid AND l.server_id = s.id AND l.staker <> (NEW.balance_micro > 0);
  RETURN NULL;
END $$;
