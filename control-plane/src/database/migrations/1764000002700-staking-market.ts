import type { MigrationInterface, QueryRunner } from 'typeorm';
import { sqlFunction } from '../sql-functions';

/** The market's ordered indexes (over listed rows): each ends with the stable tiebreak. */
const ORDERED = `SELECT indexname, indexdef FROM pg_indexes
  WHERE schemaname = 'public' AND tablename = 'market_listings' AND indexdef LIKE '%server_id) WHERE listed'`;

/**
 * The market side of staking:
 *
 * - Halving protection: a server's capacity is its allowed clients, `market_allowed_clients(tier,
 *   halving_cut)` (the tier's max, halved while the cut applies), in the listing and in the one
 *   capacity check of places (client_sets_take). The listing's capacity follows the server's
 *   tier and cut through a row trigger on those columns (market_servers_capacity); the report
 *   batches' statement trigger (market_servers_updated) no longer copies it (those writes never
 *   change either column, and a body that named `halving_cut` could not be the one a fresh
 *   database installs at migration 100, before the column exists).
 * - Stakers first among otherwise equal servers: `market_listings.staker`, set when a listing is
 *   created (market_listings_staker) and when an operator's stake fills from or empties to 0
 *   (market_listings_stake on ledger_accounts, in the statement that moves the stake); every
 *   order's index gets `staker DESC` before its tiebreak `server_id`.
 */
export class StakingMarket1764000002700 implements MigrationInterface {
  name = 'StakingMarket1764000002700';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "market_listings" ADD "staker" boolean NOT NULL DEFAULT false`,
    );
    for (const name of [
      'market_allowed_clients',
      'market_server_capacity_changed',
      'market_listing_staker',
      'market_stake_changed',
      'market_servers_updated',
      'client_sets_take',
    ]) {
      await queryRunner.query(sqlFunction(name));
    }
    await queryRunner.query(
      `UPDATE market_listings l SET capacity = market_allowed_clients(s.tier, s.halving_cut)
       FROM servers s WHERE s.id = l.server_id AND l.capacity <> market_allowed_clients(s.tier, s.halving_cut)`,
    );
    await queryRunner.query(
      `UPDATE market_listings l SET staker = true FROM servers s, ledger_accounts a
       WHERE s.id = l.server_id AND a.owner_uuid = s.owner_uuid AND a.kind = 'stake' AND a.balance_micro > 0`,
    );
    await queryRunner.query(
      `CREATE TRIGGER market_servers_capacity AFTER UPDATE OF tier, halving_cut ON servers FOR EACH ROW
       WHEN (OLD.tier IS DISTINCT FROM NEW.tier OR OLD.halving_cut IS DISTINCT FROM NEW.halving_cut)
       EXECUTE FUNCTION market_server_capacity_changed()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER market_listings_staker BEFORE INSERT ON market_listings FOR EACH ROW EXECUTE FUNCTION market_listing_staker()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER market_listings_stake AFTER UPDATE OF balance_micro ON ledger_accounts FOR EACH ROW
       WHEN (NEW.kind = 'stake' AND (OLD.balance_micro > 0) <> (NEW.balance_micro > 0))
       EXECUTE FUNCTION market_stake_changed()`,
    );
    await this.reindex(queryRunner, (definition) =>
      definition.replace(/server_id\) WHERE listed$/, 'staker DESC, server_id) WHERE listed'),
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await this.reindex(queryRunner, (definition) =>
      definition.replace(/staker DESC, server_id\) WHERE listed$/, 'server_id) WHERE listed'),
    );
    await queryRunner.query(`DROP TRIGGER market_listings_stake ON ledger_accounts`);
    await queryRunner.query(`DROP TRIGGER market_listings_staker ON market_listings`);
    await queryRunner.query(`DROP TRIGGER market_servers_capacity ON servers`);
    await queryRunner.query(`DROP FUNCTION market_stake_changed()`);
    await queryRunner.query(`DROP FUNCTION market_listing_staker()`);
    await queryRunner.query(`DROP FUNCTION market_server_capacity_changed()`);
    // The listings' capacity goes back to the tier's. market_servers_updated and client_sets_take
    // keep their bodies (no old body is pasted here: docs/development.md), and with them
    // market_allowed_clients, which client_sets_take calls: halving still limits new places
    // until this migration runs again, while the listings show the tier's capacity.
    await queryRunner.query(
      `UPDATE market_listings l SET capacity = market_capacity(s.tier)
       FROM servers s WHERE s.id = l.server_id AND l.capacity <> market_capacity(s.tier)`,
    );
    await queryRunner.query(`ALTER TABLE "market_listings" DROP COLUMN "staker"`);
  }

  /** Drops and creates each ordered index of the market with `change` applied to its definition. */
  private async reindex(
    queryRunner: QueryRunner,
    change: (definition: string) => string,
  ): Promise<void> {
    const indexes = (await queryRunner.query(ORDERED)) as Array<{
      indexname: string;
      indexdef: string;
    }>;
    for (const { indexname, indexdef } of indexes) {
      await queryRunner.query(`DROP INDEX "${indexname}"`);
      await queryRunner.query(change(indexdef));
    }
  }
}
