-- Stakers first among otherwise equal servers (docs/product/constants.md#billing-and-the-economy): a new listing is a
-- staker's when its operator's stake holds anything (trigger market_listings_staker, BEFORE
-- INSERT); market_stake_changed keeps it when the stake empties or fills.
CREATE OR REPLACE FUNCTION market_listing_staker() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.staker := EXISTS (
    SELECT 1 FROM servers s JOIN ledger_accounts a ON a.owner_uuid = s.owner_uuid AND a.kind = 'stake'
    WHERE s.id = NEW.server_id AND a.balance_micro > 0);
  RETURN NEW;
END $$;
