import type { MigrationInterface, QueryRunner } from 'typeorm';
import { sqlFunction } from '../sql-functions';

/**
 * The server market (docs/product/records.md#market-and-wallet-records, docs/product/states.md#market-and-account-states, docs/product/constants.md#market-prices-and-limits): `market_listings`, one row per server with what the
 * market sorts and filters by, kept by triggers in the same transaction as the write that
 * changes it, so that `/data/servers` is an index scan at 100,000 servers:
 *
 * - servers INSERT/UPDATE (enrollment, agent report batches, probes, the reliability sweep,
 *   Node Configuration) copy their columns into the listing; a write that moves
 *   `last_report_at` is a fresh report, so it also sets the reliability now and clears `stale`
 *   (staleness decay needs the clock: the minute sweep writes it, MarketRefresh).
 * - server_clients INSERT/DELETE keep `allowed_clients` (free slots = capacity - allowed).
 * - A BEFORE trigger derives `listed`, `disabled`, the sort group and the shown reliability.
 * - Statement triggers keep `market_counts` (listed servers, reliability and ping sums per
 *   country) exact, so totalPages, countries and stats never count 100,000 rows.
 *
 * Multi-row updates lock listing rows in server_id order (and counters in country order), so
 * report batches, client-set changes and the sweep cannot deadlock on them.
 *
 * The functions' bodies live in src/market/sql (database/sql-functions.ts): a fresh database
 * gets their current version here (market_servers_updated with the changes of migrations 400,
 * 700, 800 and 900, which no longer carry it).
 */

/** The listing columns copied from a servers row `n`. */
const COPIED = `n.country, lower(concat_ws(E'\\n', n.name, n.location, n.host)) AS search_text, n.ping_ms,
    (n.uptime_seconds / 3600)::int AS uptime_hours, market_capacity(n.tier) AS capacity,
    n.banned_at IS NOT NULL AS banned, (n.host IS NOT NULL AND n.port IS NOT NULL) AS has_address,
    COALESCE(n.core_state IN ('stopped', 'failed', 'absent'), false) AS core_down, n.last_report_at`;

/** Every partial index is over listed rows only: what the market shows. */
const SORT_PREFIX = `"sort_group", "sort_promoted_at" DESC NULLS LAST`;
const INDEXES: Array<[string, string]> = [
  [
    'ix_market_listings_default',
    `(${SORT_PREFIX}, "sort_reliability" DESC, "ping_ms" ASC NULLS LAST, "server_id") WHERE "listed"`,
  ],
  [
    'ix_market_listings_reliability_asc',
    `(${SORT_PREFIX}, "sort_reliability" ASC, "ping_ms" ASC NULLS LAST, "server_id") WHERE "listed"`,
  ],
  [
    'ix_market_listings_ping_asc',
    `(${SORT_PREFIX}, "ping_ms" ASC NULLS LAST, "sort_reliability" DESC, "server_id") WHERE "listed"`,
  ],
  [
    'ix_market_listings_ping_desc',
    `(${SORT_PREFIX}, "ping_ms" DESC NULLS FIRST, "sort_reliability" DESC, "server_id") WHERE "listed"`,
  ],
  [
    'ix_market_listings_uptime_desc',
    `(${SORT_PREFIX}, "uptime_hours" DESC, "sort_reliability" DESC, "ping_ms" ASC NULLS LAST, "server_id") WHERE "listed"`,
  ],
  [
    'ix_market_listings_uptime_asc',
    `(${SORT_PREFIX}, "uptime_hours" ASC, "sort_reliability" DESC, "ping_ms" ASC NULLS LAST, "server_id") WHERE "listed"`,
  ],
  [
    'ix_market_listings_country',
    `("country", ${SORT_PREFIX}, "sort_reliability" DESC, "ping_ms" ASC NULLS LAST, "server_id") WHERE "listed"`,
  ],
  ['ix_market_listings_search', `USING gin ("search_text" gin_trgm_ops) WHERE "listed"`],
  // 'Premium Server {n}' numbers count the (few) premium servers.
  ['ix_market_listings_premium', `("server_id") WHERE "premium"`],
  ['ix_market_listings_promoted_until', `("promoted_until") WHERE "promoted_until" IS NOT NULL`],
];

/**
 * What changes which servers a page shows or how they are grouped (not ping, uptime or the
 * reliability score, which a short-lived page cache may show up to a second late).
 */
const STRUCTURAL = `(OLD.listed, OLD.disabled, OLD.sort_group, OLD.sort_promoted_at, OLD.country, OLD.search_text,
    OLD.allowed_clients, OLD.capacity, OLD.premium)
  IS DISTINCT FROM (NEW.listed, NEW.disabled, NEW.sort_group, NEW.sort_promoted_at, NEW.country, NEW.search_text,
    NEW.allowed_clients, NEW.capacity, NEW.premium)`;

export class Market1764000000100 implements MigrationInterface {
  name = 'Market1764000000100';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // pg_trgm is a trusted extension (PostgreSQL 13+): the database owner may create it.
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await queryRunner.query(
      `CREATE TABLE "market_counts" ("country" character varying(2) NOT NULL, "listed" integer NOT NULL DEFAULT '0', "reliability_sum" bigint NOT NULL DEFAULT '0', "ping_sum" bigint NOT NULL DEFAULT '0', "ping_count" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_e93f0ab88aaaa4d5abe04fefdbb" PRIMARY KEY ("country"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "market_listings" ("server_id" uuid NOT NULL, "country" character(2), "search_text" text NOT NULL DEFAULT '', "reliability" smallint NOT NULL DEFAULT '0', "stale" boolean NOT NULL DEFAULT true, "last_report_at" TIMESTAMP WITH TIME ZONE, "ping_ms" integer, "uptime_hours" integer NOT NULL DEFAULT '0', "allowed_clients" integer NOT NULL DEFAULT '0', "capacity" integer NOT NULL DEFAULT '0', "premium" boolean NOT NULL DEFAULT false, "promoted_at" TIMESTAMP WITH TIME ZONE, "promoted_until" TIMESTAMP WITH TIME ZONE, "promoted" boolean NOT NULL DEFAULT false, "banned" boolean NOT NULL DEFAULT false, "has_address" boolean NOT NULL DEFAULT false, "core_down" boolean NOT NULL DEFAULT false, "listed" boolean NOT NULL DEFAULT false, "disabled" boolean NOT NULL DEFAULT true, "sort_group" smallint NOT NULL DEFAULT '5', "sort_promoted_at" TIMESTAMP WITH TIME ZONE, "sort_reliability" smallint NOT NULL DEFAULT '0', CONSTRAINT "PK_0d62f3295fca5eef1473cff0bd1" PRIMARY KEY ("server_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "market_processing" ("client_uuid" uuid NOT NULL, "server_id" uuid NOT NULL, "until" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_40f31e921b61d355378e6ee5761" PRIMARY KEY ("client_uuid", "server_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_market_processing_until" ON "market_processing" ("until") `,
    );
    await queryRunner.query(
      `CREATE TABLE "market_settings" ("id" smallint NOT NULL, "platform_operator_email" character varying(254), CONSTRAINT "ck_market_settings_single_row" CHECK ("id" = 1), CONSTRAINT "PK_b8e86ebb1896db117f565f6530a" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "market_listings" ADD CONSTRAINT "fk_market_listings_server" FOREIGN KEY ("server_id") REFERENCES "servers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "market_processing" ADD CONSTRAINT "fk_market_processing_client" FOREIGN KEY ("client_uuid") REFERENCES "accounts"("uuid") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "market_processing" ADD CONSTRAINT "fk_market_processing_server" FOREIGN KEY ("server_id") REFERENCES "servers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`INSERT INTO "market_settings" ("id") VALUES (1)`);
    for (const [name, definition] of INDEXES) {
      await queryRunner.query(`CREATE INDEX "${name}" ON "market_listings" ${definition}`);
    }

    await queryRunner.query(sqlFunction('market_capacity'));
    await queryRunner.query(sqlFunction('market_listing_derive'));
    await queryRunner.query(
      `CREATE TRIGGER market_listings_derive BEFORE INSERT OR UPDATE ON market_listings FOR EACH ROW EXECUTE FUNCTION market_listing_derive()`,
    );
    await queryRunner.query(sqlFunction('market_counts_apply'));
    await queryRunner.query(sqlFunction('market_listings_count_inserted'));
    await queryRunner.query(sqlFunction('market_listings_count_updated'));
    await queryRunner.query(sqlFunction('market_listings_count_deleted'));
    await queryRunner.query(
      `CREATE TRIGGER market_listings_counted_insert AFTER INSERT ON market_listings REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION market_listings_count_inserted()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER market_listings_counted_update AFTER UPDATE ON market_listings REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION market_listings_count_updated()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER market_listings_counted_delete AFTER DELETE ON market_listings REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION market_listings_count_deleted()`,
    );

    await queryRunner.query(`CREATE SEQUENCE market_version_seq`);
    await queryRunner.query(sqlFunction('market_bump_version'));
    await queryRunner.query(
      `CREATE CONSTRAINT TRIGGER market_listings_version_insert AFTER INSERT ON market_listings DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.listed) EXECUTE FUNCTION market_bump_version()`,
    );
    await queryRunner.query(
      `CREATE CONSTRAINT TRIGGER market_listings_version_update AFTER UPDATE ON market_listings DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN ((OLD.listed OR NEW.listed) AND ${STRUCTURAL}) EXECUTE FUNCTION market_bump_version()`,
    );
    await queryRunner.query(
      `CREATE CONSTRAINT TRIGGER market_listings_version_delete AFTER DELETE ON market_listings DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.listed) EXECUTE FUNCTION market_bump_version()`,
    );

    // Servers that exist already get their listing (fresh as of their last report; the first
    // sweep applies staleness) and their allowed-client count.
    await queryRunner.query(`INSERT INTO market_listings (server_id, country, search_text, ping_ms, uptime_hours, capacity, banned,
        has_address, core_down, last_report_at, reliability, stale, allowed_clients)
      SELECT n.id, ${COPIED},
        CASE WHEN n.last_report_at IS NULL THEN 0 ELSE n.reliability_at_report END, n.last_report_at IS NULL,
        (SELECT count(*)::int FROM server_clients c WHERE c.server_id = n.id)
      FROM servers n`);

    await queryRunner.query(sqlFunction('market_servers_inserted'));
    await queryRunner.query(sqlFunction('market_servers_updated'));
    await queryRunner.query(
      `CREATE TRIGGER market_servers_inserted AFTER INSERT ON servers REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION market_servers_inserted()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER market_servers_updated AFTER UPDATE ON servers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION market_servers_updated()`,
    );
    await queryRunner.query(sqlFunction('market_server_clients_changed'));
    await queryRunner.query(
      `CREATE TRIGGER market_server_clients_inserted AFTER INSERT ON server_clients REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION market_server_clients_changed()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER market_server_clients_deleted AFTER DELETE ON server_clients REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION market_server_clients_changed()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER market_server_clients_deleted ON server_clients`);
    await queryRunner.query(`DROP TRIGGER market_server_clients_inserted ON server_clients`);
    await queryRunner.query(`DROP FUNCTION market_server_clients_changed()`);
    await queryRunner.query(`DROP TRIGGER market_servers_updated ON servers`);
    await queryRunner.query(`DROP TRIGGER market_servers_inserted ON servers`);
    await queryRunner.query(`DROP FUNCTION market_servers_updated()`);
    await queryRunner.query(`DROP FUNCTION market_servers_inserted()`);
    await queryRunner.query(
      `ALTER TABLE "market_processing" DROP CONSTRAINT "fk_market_processing_server"`,
    );
    await queryRunner.query(
      `ALTER TABLE "market_processing" DROP CONSTRAINT "fk_market_processing_client"`,
    );
    await queryRunner.query(
      `ALTER TABLE "market_listings" DROP CONSTRAINT "fk_market_listings_server"`,
    );
    await queryRunner.query(`DROP TABLE "market_settings"`);
    await queryRunner.query(`DROP INDEX "public"."ix_market_processing_until"`);
    await queryRunner.query(`DROP TABLE "market_processing"`);
    // Dropping the table drops its indexes and triggers.
    await queryRunner.query(`DROP TABLE "market_listings"`);
    await queryRunner.query(`DROP FUNCTION market_listings_count_deleted()`);
    await queryRunner.query(`DROP FUNCTION market_listings_count_updated()`);
    await queryRunner.query(`DROP FUNCTION market_listings_count_inserted()`);
    await queryRunner.query(`DROP FUNCTION market_listing_derive()`);
    await queryRunner.query(`DROP FUNCTION market_bump_version()`);
    await queryRunner.query(`DROP SEQUENCE market_version_seq`);
    await queryRunner.query(`DROP FUNCTION market_capacity(varchar)`);
    await queryRunner.query(`DROP FUNCTION market_counts_apply(market_counts[])`);
    await queryRunner.query(`DROP TABLE "market_counts"`);
    // pg_trgm stays: other objects of the database may use it, and up() tolerates it.
  }
}
