import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The server market (spec 01 §3, §4, §9): `market_listings`, one row per server with what the
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
 */

/** spec 01 §9 tiers' max clients (VPS_TIERS); manual servers count as tier1. Checked by market.db-spec. */
const CAPACITY_FUNCTION = `CREATE FUNCTION market_capacity(tier varchar) RETURNS int LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE tier WHEN 'tier1' THEN 10 WHEN 'tier2' THEN 25 WHEN 'tier3' THEN 60 WHEN 'tier4' THEN 140 ELSE 10 END
$$`;

/** spec 02 §4 (hidden below 95, banned, no address), spec 01 §4 (disabled), spec 01 §9 (order). */
const DERIVE_FUNCTION = `CREATE FUNCTION market_listing_derive() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.listed := NOT NEW.banned AND NEW.has_address AND NEW.reliability >= 95;
  NEW.disabled := NEW.stale OR NEW.reliability < 50 OR NEW.core_down OR NEW.allowed_clients >= NEW.capacity;
  NEW.sort_group := (CASE WHEN NEW.disabled THEN 3 ELSE 0 END)
    + (CASE WHEN NEW.premium THEN 0 WHEN NEW.promoted THEN 1 ELSE 2 END);
  NEW.sort_promoted_at := CASE WHEN NEW.promoted AND NOT NEW.premium THEN NEW.promoted_at END;
  NEW.sort_reliability := CASE WHEN NEW.disabled THEN 0 WHEN NEW.premium THEN 100 ELSE NEW.reliability END;
  RETURN NEW;
END $$`;

/** The listing columns copied from a servers row `n`. */
const COPIED = `n.country, lower(concat_ws(E'\\n', n.name, n.location, n.host)) AS search_text, n.ping_ms,
    (n.uptime_seconds / 3600)::int AS uptime_hours, market_capacity(n.tier) AS capacity,
    n.banned_at IS NOT NULL AS banned, (n.host IS NOT NULL AND n.port IS NOT NULL) AS has_address,
    COALESCE(n.core_state IN ('stopped', 'failed', 'absent'), false) AS core_down, n.last_report_at`;

const PREMIUM_OF = `EXISTS (SELECT 1 FROM market_settings m JOIN accounts a ON a.email = m.platform_operator_email
     WHERE a.uuid = n.owner_uuid)`;

const SERVERS_INSERTED_FUNCTION = `CREATE FUNCTION market_servers_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO market_listings (server_id, country, search_text, ping_ms, uptime_hours, capacity, banned,
                               has_address, core_down, last_report_at, reliability, stale, premium)
  SELECT n.id, ${COPIED},
    CASE WHEN n.last_report_at IS NULL THEN 0 ELSE n.reliability_at_report END,
    n.last_report_at IS NULL,
    ${PREMIUM_OF}
  FROM new_rows n;
  RETURN NULL;
END $$`;

const SERVERS_UPDATED_FUNCTION = `CREATE FUNCTION market_servers_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH v AS (
    SELECT n.id, ${COPIED}, n.reliability_at_report,
      n.last_report_at IS NOT NULL AND (n.last_report_at IS DISTINCT FROM o.last_report_at
        OR n.reliability_at_report <> o.reliability_at_report) AS fresh
    FROM new_rows n JOIN old_rows o ON o.id = n.id
  ), changed AS (
    SELECT v.* FROM v JOIN market_listings l ON l.server_id = v.id
    WHERE v.fresh
       OR (l.country, l.search_text, l.ping_ms, l.uptime_hours, l.capacity, l.banned, l.has_address, l.core_down)
          IS DISTINCT FROM (v.country, v.search_text, v.ping_ms, v.uptime_hours, v.capacity, v.banned, v.has_address, v.core_down)
    ORDER BY v.id
    FOR UPDATE OF l
  )
  UPDATE market_listings l SET
    country = c.country, search_text = c.search_text, ping_ms = c.ping_ms, uptime_hours = c.uptime_hours,
    capacity = c.capacity, banned = c.banned, has_address = c.has_address, core_down = c.core_down,
    last_report_at = c.last_report_at,
    reliability = CASE WHEN c.fresh THEN c.reliability_at_report ELSE l.reliability END,
    stale = CASE WHEN c.fresh THEN false ELSE l.stale END
  FROM changed c WHERE l.server_id = c.id;
  RETURN NULL;
END $$`;

const CLIENTS_CHANGED_FUNCTION = `CREATE FUNCTION market_server_clients_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH d AS (SELECT server_id, count(*)::int AS n FROM new_rows GROUP BY server_id),
    locked AS (SELECT l.server_id, d.n FROM market_listings l JOIN d ON d.server_id = l.server_id
               ORDER BY l.server_id FOR UPDATE OF l)
    UPDATE market_listings l SET allowed_clients = l.allowed_clients + k.n FROM locked k WHERE l.server_id = k.server_id;
  ELSE
    WITH d AS (SELECT server_id, count(*)::int AS n FROM old_rows GROUP BY server_id),
    locked AS (SELECT l.server_id, d.n FROM market_listings l JOIN d ON d.server_id = l.server_id
               ORDER BY l.server_id FOR UPDATE OF l)
    UPDATE market_listings l SET allowed_clients = GREATEST(0, l.allowed_clients - k.n) FROM locked k WHERE l.server_id = k.server_id;
  END IF;
  RETURN NULL;
END $$`;

/** A listed row's share of its country's counters; `sign` -1 takes an old row out. */
const contribution = (table: string, sign: 1 | -1) =>
  `SELECT COALESCE(country, '')::text AS country, ${sign} AS listed, ${sign} * reliability AS reliability_sum,
     ${sign} * COALESCE(ping_ms, 0)::bigint AS ping_sum, ${sign} * (ping_ms IS NOT NULL)::int AS ping_count
   FROM ${table} WHERE listed`;

const COUNTS_FUNCTION = `CREATE FUNCTION market_listings_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO market_counts AS c (country, listed, reliability_sum, ping_sum, ping_count)
  SELECT d.country, sum(d.listed), sum(d.reliability_sum), sum(d.ping_sum), sum(d.ping_count)
  FROM (
    SELECT ''::text AS country, 0 AS listed, 0 AS reliability_sum, 0::bigint AS ping_sum, 0 AS ping_count WHERE false
    UNION ALL ${'$NEW'}
    UNION ALL ${'$OLD'}
  ) d
  GROUP BY d.country
  HAVING sum(d.listed) <> 0 OR sum(d.reliability_sum) <> 0 OR sum(d.ping_sum) <> 0 OR sum(d.ping_count) <> 0
  ORDER BY d.country
  ON CONFLICT (country) DO UPDATE SET listed = c.listed + EXCLUDED.listed,
    reliability_sum = c.reliability_sum + EXCLUDED.reliability_sum,
    ping_sum = c.ping_sum + EXCLUDED.ping_sum, ping_count = c.ping_count + EXCLUDED.ping_count;
  RETURN NULL;
END $$`;

function countsFunction(name: string, withNew: boolean, withOld: boolean): string {
  return COUNTS_FUNCTION.replace('market_listings_count()', `${name}()`)
    .replace('UNION ALL $NEW', withNew ? `UNION ALL ${contribution('new_rows', 1)}` : '')
    .replace('UNION ALL $OLD', withOld ? `UNION ALL ${contribution('old_rows', -1)}` : '');
}

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

/**
 * The market version: moves when a committed change alters what a page shows (MarketPageCache
 * keys on it). A sequence takes no lock, so it cannot make writers wait on each other, and the
 * deferred trigger moves it at commit, when the change becomes visible.
 */
const VERSION_FUNCTION = `CREATE FUNCTION market_bump_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('market_version_seq');
  RETURN NULL;
END $$`;

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

    await queryRunner.query(CAPACITY_FUNCTION);
    await queryRunner.query(DERIVE_FUNCTION);
    await queryRunner.query(
      `CREATE TRIGGER market_listings_derive BEFORE INSERT OR UPDATE ON market_listings FOR EACH ROW EXECUTE FUNCTION market_listing_derive()`,
    );
    await queryRunner.query(countsFunction('market_listings_count_inserted', true, false));
    await queryRunner.query(countsFunction('market_listings_count_updated', true, true));
    await queryRunner.query(countsFunction('market_listings_count_deleted', false, true));
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
    await queryRunner.query(VERSION_FUNCTION);
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

    await queryRunner.query(SERVERS_INSERTED_FUNCTION);
    await queryRunner.query(SERVERS_UPDATED_FUNCTION);
    await queryRunner.query(
      `CREATE TRIGGER market_servers_inserted AFTER INSERT ON servers REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION market_servers_inserted()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER market_servers_updated AFTER UPDATE ON servers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION market_servers_updated()`,
    );
    await queryRunner.query(CLIENTS_CHANGED_FUNCTION);
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
    await queryRunner.query(`DROP TABLE "market_counts"`);
    // pg_trgm stays: other objects of the database may use it, and up() tolerates it.
  }
}
