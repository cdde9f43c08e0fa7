import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Statistics on the two-character pieces of the listings' search text (market_search_pairs).
 * The planner reads no statistics from a partial index's expression, so it guessed that any
 * pair matched 0.5% of the listings: a pair found in every listing (a country code inside
 * "node") was then counted through the index, reading all of it (16 ms at 100,000 servers)
 * where reading listings until MARKET_SEARCH_COUNT_CAP + 1 matches takes a fraction of that.
 */
export class MarketSearchPairsStatistics1764000004200 implements MigrationInterface {
  name = 'MarketSearchPairsStatistics1764000004200';
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE STATISTICS "st_market_listings_search_pairs" ON (market_search_pairs("search_text")) FROM "market_listings"`,
    );
    await queryRunner.query(`ANALYZE "market_listings"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP STATISTICS "st_market_listings_search_pairs"`);
  }
}
