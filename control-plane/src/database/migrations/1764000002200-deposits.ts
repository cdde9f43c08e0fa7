import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SOL deposits: deposit requests with their quote and Solana Pay reference, and
 * the credits, unique per signature (primary key) and per request.
 */
export class Deposits1764000002200 implements MigrationInterface {
  name = 'Deposits1764000002200';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "deposit_requests" ("id" uuid NOT NULL, "owner_uuid" uuid NOT NULL, "wallet_kind" character varying(16) NOT NULL, "user_address" character varying(44) NOT NULL, "reference" character varying(44) NOT NULL, "lamports" bigint NOT NULL, "ssl_per_sol" integer NOT NULL, "credit_micro" bigint NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'open', "signature" character varying(88), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "credited_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "ck_deposit_requests_amounts" CHECK ("lamports" > 0 AND "credit_micro" > 0), CONSTRAINT "ck_deposit_requests_wallet" CHECK ("wallet_kind" IN ('client_wallet', 'node_wallet')), CONSTRAINT "ck_deposit_requests_status" CHECK ("status" IN ('open', 'credited')), CONSTRAINT "PK_5474ff41b8c5aca99ac263e9b57" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_deposit_requests_reference" ON "deposit_requests" ("reference") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_deposit_requests_owner" ON "deposit_requests" ("owner_uuid", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "deposit_credits" ("signature" character varying(88) NOT NULL, "request_id" uuid NOT NULL, "owner_uuid" uuid NOT NULL, "lamports" bigint NOT NULL, "ssl_per_sol" integer NOT NULL, "credit_micro" bigint NOT NULL, "sender" character varying(44) NOT NULL, "block_time" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_b1480bbef43a4c30da5cc84e84e" PRIMARY KEY ("signature"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_deposit_credits_request" ON "deposit_credits" ("request_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "deposit_credits" ADD CONSTRAINT "fk_deposit_credits_request" FOREIGN KEY ("request_id") REFERENCES "deposit_requests"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "deposit_credits"`);
    await queryRunner.query(`DROP TABLE "deposit_requests"`);
  }
}
