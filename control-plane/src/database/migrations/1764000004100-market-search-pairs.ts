import type { MigrationInterface, QueryRunner } from 'typeorm';
import { sqlFunction } from '../sql-functions';

/**
 * Market searches of two characters through an index (market_search_pairs): the trigram index
 * answers a term of three characters or more, and a shorter one read every listed server
 * (bench/market, 100,000 servers: a Chinese country name such as 德国 or a country code).
 */
export class MarketSearchPairs1764000004100 implements MigrationInterface {
  name = 'MarketSearchPairs1764000004100';
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(sqlFunction('market_search_pairs'));
    await queryRunner.query(
      `CREATE INDEX "ix_market_listings_search_pairs" ON "market_listings" USING gin (market_search_pairs("search_text")) WHERE "listed"`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "ix_market_listings_search_pairs"`);
    await queryRunner.query(`DROP FUNCTION market_search_pairs(text)`);
  }
}
