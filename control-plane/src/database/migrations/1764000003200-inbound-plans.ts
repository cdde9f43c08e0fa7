import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Secure transports and persistent ports. Each agent server gets the inbound plan
 * the control plane pushes (its own port, security, transport and the plan's revision), the
 * core it enrolled with, when its port was last regenerated (the emergency regeneration is
 * rate-limited), and the self-signed certificate its agent reported (PEM, for the client formats
 * that trust a certificate rather than pin its hash). Servers enrolled before keep the port they
 * report as their plan's port.
 */
export class InboundPlans1764000003200 implements MigrationInterface {
  name = 'InboundPlans1764000003200';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "servers" ADD "core" character varying(8), ADD "plan_port" integer, ADD "plan_security" character varying(8), ADD "plan_network" character varying(8) NOT NULL DEFAULT 'tcp', ADD "plan_revision" bigint NOT NULL DEFAULT '0', ADD "port_regenerated_at" TIMESTAMP WITH TIME ZONE, ADD "certificate_pem" text`,
    );
    await queryRunner.query(
      `ALTER TABLE "servers" ADD CONSTRAINT "ck_servers_plan" CHECK ("plan_port" BETWEEN 1 AND 65535 AND "plan_security" IN ('reality', 'tls') AND "plan_network" IN ('tcp', 'ws', 'grpc') AND "core" IN ('xray', 'v2ray') AND "plan_revision" >= 0 AND length("certificate_pem") <= 8192)`,
    );
    await queryRunner.query(
      `UPDATE "servers" SET "plan_port" = "port" WHERE "source" = 'agent' AND "port" IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "servers" DROP CONSTRAINT "ck_servers_plan"`);
    await queryRunner.query(
      `ALTER TABLE "servers" DROP COLUMN "certificate_pem", DROP COLUMN "port_regenerated_at", DROP COLUMN "plan_revision", DROP COLUMN "plan_network", DROP COLUMN "plan_security", DROP COLUMN "plan_port", DROP COLUMN "core"`,
    );
  }
}
