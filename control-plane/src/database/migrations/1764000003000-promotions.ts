import type { MigrationInterface, QueryRunner } from 'typeorm';
import { sqlFunction } from '../sql-functions';

/** The market's ordered indexes (over listed rows): each ends with the stable tiebreak. */
const ORDERED = `SELECT indexname, indexdef FROM pg_indexes
  WHERE schemaname = 'public' AND tablename = 'market_listings' AND indexdef LIKE '%server_id) WHERE listed'`;
const NEWER_FIRST = 'sort_promoted_at DESC NULLS LAST';
const HIGHER_THEN_NEWER_FIRST = `sort_promotion_micro DESC NULLS LAST, ${NEWER_FIRST}`;

/**
 * Promotions (docs/product/states.md#market-and-account-states, docs/product/input-rules.md#market-and-account-input, docs/product/constants.md#market-prices-and-limits):
 *
 * - `server_promotions`: per server, what its owner has paid for promotions (the 4,000 SSL cap
 *   counts it; a CHECK refuses more) and when the current promotion ends.
 * - `promotion_purchases`: each plan bought, with its price, its split (10% burned, the rest to
 *   the reward pool) and the ledger transaction that paid it.
 * - The market lists promoted servers higher promotions first, then newer ones:
 *   `market_listings.promotion_micro` (paid for the promotion running now) and its sort key
 *   `sort_promotion_micro` (market_listing_promotion: null unless promoted and not premium), put
 *   before `sort_promoted_at` in every ordered index.
 * - `ix_market_listings_promotion_expiry`: the promoted listings by end, so a market read finds a
 *   promotion that has run out in one index probe and ends it before showing a page.
 */
export class Promotions1764000003000 implements MigrationInterface {
  name = 'Promotions1764000003000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "promotion_purchases" ("id" uuid NOT NULL, "server_id" uuid NOT NULL, "owner_uuid" uuid NOT NULL, "plan" character varying(16) NOT NULL, "days" smallint NOT NULL, "cost_micro" bigint NOT NULL, "burn_micro" bigint NOT NULL, "pool_micro" bigint NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "ledger_transaction_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "ck_promotion_purchases_plan" CHECK ("plan" IN ('basic', 'standard', 'premium')), CONSTRAINT "ck_promotion_purchases_amounts" CHECK ("cost_micro" > 0 AND "burn_micro" >= 0 AND "pool_micro" > 0 AND "cost_micro" = "burn_micro" + "pool_micro"), CONSTRAINT "PK_77db27cd74877e8409080a4f7db" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_promotion_purchases_server" ON "promotion_purchases" ("server_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "server_promotions" ("server_id" uuid NOT NULL, "amount_paid_micro" bigint NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "ck_server_promotions_cap" CHECK ("amount_paid_micro" > 0 AND "amount_paid_micro" <= 4000000000), CONSTRAINT "PK_f13431b62c35ad82ac556b85cfe" PRIMARY KEY ("server_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "promotion_purchases" ADD CONSTRAINT "fk_promotion_purchases_server" FOREIGN KEY ("server_id") REFERENCES "servers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "promotion_purchases" ADD CONSTRAINT "fk_promotion_purchases_ledger_transaction" FOREIGN KEY ("ledger_transaction_id") REFERENCES "ledger_transactions"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "server_promotions" ADD CONSTRAINT "fk_server_promotions_server" FOREIGN KEY ("server_id") REFERENCES "servers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );

    await queryRunner.query(`ALTER TABLE "market_listings" ADD "promotion_micro" bigint`);
    await queryRunner.query(`ALTER TABLE "market_listings" ADD "sort_promotion_micro" bigint`);
    await queryRunner.query(sqlFunction('market_listing_promotion'));
    await queryRunner.query(
      `CREATE TRIGGER market_listings_promotion BEFORE INSERT OR UPDATE ON market_listings FOR EACH ROW EXECUTE FUNCTION market_listing_promotion()`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_market_listings_promotion_expiry" ON "market_listings" ("promoted_until") WHERE "promoted"`,
    );
    await this.reindex(queryRunner, (definition) =>
      definition.replace(NEWER_FIRST, HIGHER_THEN_NEWER_FIRST),
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await this.reindex(queryRunner, (definition) =>
      definition.replace(HIGHER_THEN_NEWER_FIRST, NEWER_FIRST),
    );
    await queryRunner.query(`DROP INDEX "ix_market_listings_promotion_expiry"`);
    await queryRunner.query(`DROP TRIGGER market_listings_promotion ON market_listings`);
    await queryRunner.query(`DROP FUNCTION market_listing_promotion()`);
    await queryRunner.query(`ALTER TABLE "market_listings" DROP COLUMN "sort_promotion_micro"`);
    await queryRunner.query(`ALTER TABLE "market_listings" DROP COLUMN "promotion_micro"`);
    await queryRunner.query(
      `ALTER TABLE "server_promotions" DROP CONSTRAINT "fk_server_promotions_server"`,
    );
    await queryRunner.query(
      `ALTER TABLE "promotion_purchases" DROP CONSTRAINT "fk_promotion_purchases_ledger_transaction"`,
    );
    await queryRunner.query(
      `ALTER TABLE "promotion_purchases" DROP CONSTRAINT "fk_promotion_purchases_server"`,
    );
    await queryRunner.query(`DROP TABLE "server_promotions"`);
    await queryRunner.query(`DROP INDEX "ix_promotion_purchases_server"`);
    await queryRunner.query(`DROP TABLE "promotion_purchases"`);
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
