import type { MigrationInterface, QueryRunner } from 'typeorm';
import { sqlFunction } from '../sql-functions';

/** Every partial index is over listed rows only, with the market's order prefix (market migration). */
const SORT_PREFIX = `"sort_group", "sort_promoted_at" DESC NULLS LAST`;

/**
 * Sort by price (docs/product/constants.md#market-prices-and-limits) now has something to sort: servers added without the agent are
 * free while agent servers cost 10 SSL. `market_listings.free` says which (a
 * server's source never changes, so it is set once, when its listing is created), with an index
 * per direction; within a price the default order applies. During the launch period every
 * regular server is free, and the market keeps its default order (market-query.ts).
 */
export class MarketFreeServers1764000001001 implements MigrationInterface {
  name = 'MarketFreeServers1764000001001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "market_listings" ADD "free" boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(
      `UPDATE "market_listings" l SET "free" = true FROM "servers" s
       WHERE s."id" = l."server_id" AND s."source" = 'manual'`,
    );
    // A listing is created by the servers INSERT trigger; this fills `free` in as it is created.
    await queryRunner.query(sqlFunction('market_listing_free'));
    await queryRunner.query(
      `CREATE TRIGGER market_listings_free BEFORE INSERT ON market_listings FOR EACH ROW EXECUTE FUNCTION market_listing_free()`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_market_listings_price_free_first" ON "market_listings" (${SORT_PREFIX}, "free" DESC, "sort_reliability" DESC, "ping_ms" ASC NULLS LAST, "server_id") WHERE "listed"`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_market_listings_price_paid_first" ON "market_listings" (${SORT_PREFIX}, "free" ASC, "sort_reliability" DESC, "ping_ms" ASC NULLS LAST, "server_id") WHERE "listed"`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "ix_market_listings_price_paid_first"`);
    await queryRunner.query(`DROP INDEX "ix_market_listings_price_free_first"`);
    await queryRunner.query(`DROP TRIGGER market_listings_free ON market_listings`);
    await queryRunner.query(`DROP FUNCTION market_listing_free()`);
    await queryRunner.query(`ALTER TABLE "market_listings" DROP COLUMN "free"`);
  }
}
