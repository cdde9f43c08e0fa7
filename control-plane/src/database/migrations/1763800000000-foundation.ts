import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Accounts, sessions, e-mailed codes, terms acceptances, contact messages, rate-limit counters. */
export class Foundation1763800000000 implements MigrationInterface {
  name = 'Foundation1763800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "accounts" ("uuid" uuid NOT NULL, "email" character varying(254) NOT NULL, "user_type" character varying(10) NOT NULL, "password_hash" text NOT NULL, "name" character varying(254) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "uq_accounts_email_user_type" UNIQUE ("email", "user_type"), CONSTRAINT "ck_accounts_user_type" CHECK ("user_type" IN ('client', 'node')), CONSTRAINT "PK_45705ce5c594e0b9f6158a43370" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "terms_acceptances" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "account_uuid" uuid NOT NULL, "terms_version" character varying(16) NOT NULL, "privacy_version" character varying(16) NOT NULL, "ip_address" character varying(64) NOT NULL, "user_agent" character varying(1024), "browser_info" jsonb, "location" jsonb, "client_timestamp" character varying(64), "accepted_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6862bb2dab40bd9f9a6ec2098b8" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_terms_acceptances_account" ON "terms_acceptances" ("account_uuid", "accepted_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "sessions" ("id" uuid NOT NULL, "token_hash" character(64) NOT NULL, "account_uuid" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "revoked_at" TIMESTAMP WITH TIME ZONE, "ip_address" character varying(64), "user_agent" character varying(512), CONSTRAINT "PK_3238ef96f18b355b671619111bc" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_sessions_token_hash" ON "sessions" ("token_hash") `,
    );
    await queryRunner.query(`CREATE INDEX "ix_sessions_account" ON "sessions" ("account_uuid") `);
    await queryRunner.query(
      `CREATE TABLE "verification_codes" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "email" character varying(254) NOT NULL, "user_type" character varying(10) NOT NULL, "purpose" character varying(16) NOT NULL, "code_hash" character(64) NOT NULL, "attempts" integer NOT NULL DEFAULT '0', "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "uq_verification_codes_target" UNIQUE ("email", "user_type", "purpose"), CONSTRAINT "ck_verification_codes_purpose" CHECK ("purpose" IN ('register', 'reset')), CONSTRAINT "PK_18741b6b8bf1680dbf5057421d7" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "contact_messages" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "email" character varying(254) NOT NULL, "subject" character varying(200) NOT NULL, "message" text NOT NULL, "ip_address" character varying(64) NOT NULL, "account_uuid" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "mailed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_b74f96eb2edd977ccfba6533293" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "rate_limit_hits" ("bucket" character varying(300) NOT NULL, "window_start" TIMESTAMP WITH TIME ZONE NOT NULL, "hits" integer NOT NULL, CONSTRAINT "PK_7ad2d424313141f04f747c1f6b1" PRIMARY KEY ("bucket", "window_start"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "terms_acceptances" ADD CONSTRAINT "fk_terms_acceptances_account" FOREIGN KEY ("account_uuid") REFERENCES "accounts"("uuid") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "sessions" ADD CONSTRAINT "fk_sessions_account" FOREIGN KEY ("account_uuid") REFERENCES "accounts"("uuid") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "contact_messages" ADD CONSTRAINT "fk_contact_messages_account" FOREIGN KEY ("account_uuid") REFERENCES "accounts"("uuid") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "contact_messages" DROP CONSTRAINT "fk_contact_messages_account"`,
    );
    await queryRunner.query(`ALTER TABLE "sessions" DROP CONSTRAINT "fk_sessions_account"`);
    await queryRunner.query(
      `ALTER TABLE "terms_acceptances" DROP CONSTRAINT "fk_terms_acceptances_account"`,
    );
    await queryRunner.query(`DROP TABLE "rate_limit_hits"`);
    await queryRunner.query(`DROP TABLE "contact_messages"`);
    await queryRunner.query(`DROP TABLE "verification_codes"`);
    await queryRunner.query(`DROP INDEX "public"."ix_sessions_account"`);
    await queryRunner.query(`DROP INDEX "public"."uq_sessions_token_hash"`);
    await queryRunner.query(`DROP TABLE "sessions"`);
    await queryRunner.query(`DROP INDEX "public"."ix_terms_acceptances_account"`);
    await queryRunner.query(`DROP TABLE "terms_acceptances"`);
    await queryRunner.query(`DROP TABLE "accounts"`);
  }
}
