import type { MigrationInterface, QueryRunner } from 'typeorm';
import { sqlFunction } from '../sql-functions';

/**
 * Reachability (docs/reachability.md): vantage points and their one-time tokens, the latest
 * observation per observer, server and network, the estimate per server x country x network, the
 * trust of reporting clients, each server's probe UUID and automatic port regeneration, the
 * market order's reachability penalty, where each subscription was last used from, and the
 * replacements of servers blocked there.
 */
export class Reachability1764000003900 implements MigrationInterface {
  name = 'Reachability1764000003900';
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "subscription_replacements" ("id" uuid NOT NULL, "subscription_id" uuid NOT NULL, "blocked_server_id" uuid NOT NULL, "blocked_server_name" character varying(100) NOT NULL, "replacement_server_id" uuid NOT NULL, "replacement_server_name" character varying(100) NOT NULL, "country" character(2) NOT NULL, "asn" integer NOT NULL, "period_index" integer NOT NULL, "replaced_at" TIMESTAMP WITH TIME ZONE NOT NULL, "moved_micro" bigint NOT NULL, CONSTRAINT "ck_subscription_replacements_amount" CHECK ("moved_micro" >= 0), CONSTRAINT "PK_3e44ffbd8e48ef20fca21438c53" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_subscription_replacements_period" ON "subscription_replacements" ("subscription_id", "blocked_server_id", "period_index")`,
    );
    await queryRunner.query(
      `CREATE TABLE "reachability_observations" ("server_id" uuid NOT NULL, "country" character(2) NOT NULL, "asn" integer NOT NULL, "observer_id" uuid NOT NULL, "observer_kind" character varying(8) NOT NULL, "works" boolean NOT NULL, "error_class" character varying(20) NOT NULL, "total_ms" integer, "plan_revision" bigint NOT NULL, "observed_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "ck_reachability_observations_kind" CHECK ("observer_kind" IN ('probe', 'client')), CONSTRAINT "PK_51b244110b3347eca3e0cb7a145" PRIMARY KEY ("server_id", "country", "asn", "observer_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_reachability_observations_observer" ON "reachability_observations" ("observer_id", "observed_at")`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_reachability_observations_observed" ON "reachability_observations" ("observed_at")`,
    );
    await queryRunner.query(
      `CREATE TABLE "reachability_reporters" ("account_uuid" uuid NOT NULL, "agreements" integer NOT NULL DEFAULT '0', "disagreements" integer NOT NULL DEFAULT '0', "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_07c7440c71c0bb35a31acb58c61" PRIMARY KEY ("account_uuid"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "server_reachability" ("server_id" uuid NOT NULL, "country" character(2) NOT NULL, "asn" integer NOT NULL, "score" smallint NOT NULL, "state" character(1) NOT NULL, "observers" smallint NOT NULL, "probes" smallint NOT NULL, "measured_at" TIMESTAMP WITH TIME ZONE NOT NULL, "blocked_since" TIMESTAMP WITH TIME ZONE, "plan_revision" bigint NOT NULL, CONSTRAINT "PK_352063a45fa27aeff5fd6fc1b08" PRIMARY KEY ("server_id", "country", "asn"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_server_reachability_network" ON "server_reachability" ("country", "asn", "state")`,
    );
    await queryRunner.query(
      `CREATE TABLE "vantage_point_tokens" ("id" uuid NOT NULL, "token_hash" character(64) NOT NULL, "owner_uuid" uuid NOT NULL, "name" character varying(100) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "probe_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b7aefa242acccef6864f0d5b2a1" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_vantage_point_tokens_hash" ON "vantage_point_tokens" ("token_hash")`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_vantage_point_tokens_owner" ON "vantage_point_tokens" ("owner_uuid")`,
    );
    await queryRunner.query(
      `CREATE TABLE "vantage_points" ("id" uuid NOT NULL, "owner_uuid" uuid NOT NULL, "name" character varying(100) NOT NULL, "secret_hash" character(64) NOT NULL, "agent_version" character varying(32), "last_address" character varying(45), "country" character(2), "asn" integer, "last_seen_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b57e1043ac94eb021f47bed641e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_vantage_points_owner" ON "vantage_points" ("owner_uuid")`,
    );
    await queryRunner.query(
      `ALTER TABLE "servers" ADD "probe_uuid" uuid NOT NULL DEFAULT uuid_generate_v4()`,
    );
    await queryRunner.query(`ALTER TABLE "servers" ADD "auto_regenerate_s" integer`);
    await queryRunner.query(
      `ALTER TABLE "market_listings" ADD "reach_penalty" smallint NOT NULL DEFAULT '0'`,
    );
    await queryRunner.query(`ALTER TABLE "subscriptions" ADD "client_country" character(2)`);
    await queryRunner.query(`ALTER TABLE "subscriptions" ADD "client_asn" integer`);
    await queryRunner.query(
      `ALTER TABLE "subscriptions" ADD "client_seen_at" TIMESTAMP WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "subscription_replacements" ADD CONSTRAINT "fk_subscription_replacements_subscription" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "reachability_observations" ADD CONSTRAINT "fk_reachability_observations_server" FOREIGN KEY ("server_id") REFERENCES "servers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "reachability_reporters" ADD CONSTRAINT "fk_reachability_reporters_account" FOREIGN KEY ("account_uuid") REFERENCES "accounts"("uuid") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "server_reachability" ADD CONSTRAINT "fk_server_reachability_server" FOREIGN KEY ("server_id") REFERENCES "servers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "vantage_point_tokens" ADD CONSTRAINT "fk_vantage_point_tokens_owner" FOREIGN KEY ("owner_uuid") REFERENCES "accounts"("uuid") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "vantage_points" ADD CONSTRAINT "fk_vantage_points_owner" FOREIGN KEY ("owner_uuid") REFERENCES "accounts"("uuid") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(sqlFunction('market_listing_derive'));
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(PREVIOUS_DERIVE);
    await queryRunner.query(
      `ALTER TABLE "vantage_points" DROP CONSTRAINT "fk_vantage_points_owner"`,
    );
    await queryRunner.query(
      `ALTER TABLE "vantage_point_tokens" DROP CONSTRAINT "fk_vantage_point_tokens_owner"`,
    );
    await queryRunner.query(
      `ALTER TABLE "server_reachability" DROP CONSTRAINT "fk_server_reachability_server"`,
    );
    await queryRunner.query(
      `ALTER TABLE "reachability_reporters" DROP CONSTRAINT "fk_reachability_reporters_account"`,
    );
    await queryRunner.query(
      `ALTER TABLE "reachability_observations" DROP CONSTRAINT "fk_reachability_observations_server"`,
    );
    await queryRunner.query(
      `ALTER TABLE "subscription_replacements" DROP CONSTRAINT "fk_subscription_replacements_subscription"`,
    );
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP COLUMN "client_seen_at"`);
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP COLUMN "client_asn"`);
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP COLUMN "client_country"`);
    await queryRunner.query(`ALTER TABLE "market_listings" DROP COLUMN "reach_penalty"`);
    await queryRunner.query(`ALTER TABLE "servers" DROP COLUMN "auto_regenerate_s"`);
    await queryRunner.query(`ALTER TABLE "servers" DROP COLUMN "probe_uuid"`);
    await queryRunner.query(`DROP INDEX "public"."ix_vantage_points_owner"`);
    await queryRunner.query(`DROP TABLE "vantage_points"`);
    await queryRunner.query(`DROP INDEX "public"."ix_vantage_point_tokens_owner"`);
    await queryRunner.query(`DROP INDEX "public"."uq_vantage_point_tokens_hash"`);
    await queryRunner.query(`DROP TABLE "vantage_point_tokens"`);
    await queryRunner.query(`DROP INDEX "public"."ix_server_reachability_network"`);
    await queryRunner.query(`DROP TABLE "server_reachability"`);
    await queryRunner.query(`DROP TABLE "reachability_reporters"`);
    await queryRunner.query(`DROP INDEX "public"."ix_reachability_observations_observed"`);
    await queryRunner.query(`DROP INDEX "public"."ix_reachability_observations_observer"`);
    await queryRunner.query(`DROP TABLE "reachability_observations"`);
    await queryRunner.query(`DROP INDEX "public"."uq_subscription_replacements_period"`);
    await queryRunner.query(`DROP TABLE "subscription_replacements"`);
  }
}

/** market_listing_derive before reachability (its source file at migration 1764000003800). */
const PREVIOUS_DERIVE = `CREATE OR REPLACE FUNCTION market_listing_derive() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.listed := NOT NEW.banned AND NEW.has_address AND NEW.reliability >= 95;
  NEW.disabled := NEW.stale OR NEW.reliability < 50 OR NEW.core_down OR NEW.allowed_clients >= NEW.capacity;
  NEW.sort_group := (CASE WHEN NEW.disabled THEN 3 ELSE 0 END)
    + (CASE WHEN NEW.premium THEN 0 WHEN NEW.promoted THEN 1 ELSE 2 END);
  NEW.sort_promoted_at := CASE WHEN NEW.promoted AND NOT NEW.premium THEN NEW.promoted_at END;
  NEW.sort_reliability := CASE WHEN NEW.disabled THEN 0 WHEN NEW.premium THEN 100 ELSE NEW.reliability END;
  RETURN NEW;
END $$;`;
