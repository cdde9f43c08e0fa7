import type { MigrationInterface, QueryRunner } from 'typeorm';
import { sqlFunction } from '../sql-functions';

/** The columns of `servers` a feed takes: an UPDATE that moves none of them notifies nothing. */
const FEED_SERVER_COLUMNS = [
  'owner_uuid',
  'name',
  'source',
  'host',
  'port',
  'inbound',
  'vless_string',
  'country',
  'tier',
  'banned_at',
  'core_state',
  'certificate_pem',
  'plan_revision',
];
const changed = (columns: readonly string[]) =>
  `(${columns.map((c) => `OLD."${c}"`).join(', ')}) IS DISTINCT FROM (${columns.map((c) => `NEW."${c}"`).join(', ')})`;

/**
 * The feed's memory is invalidated by commits (docs/architecture.md#subscription-feed): triggers
 * NOTIFY scn_feed with what changed, every replica listens (FeedInvalidation).
 */
export class FeedInvalidation1764000004250 implements MigrationInterface {
  name = 'FeedInvalidation1764000004250';
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(sqlFunction('feed_changed'));
    await queryRunner.query(
      `CREATE TRIGGER feed_subscriptions_changed AFTER INSERT OR UPDATE OR DELETE ON "subscriptions" FOR EACH ROW EXECUTE FUNCTION feed_changed()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER feed_subscription_servers_changed AFTER INSERT OR UPDATE OR DELETE ON "subscription_servers" FOR EACH ROW EXECUTE FUNCTION feed_changed()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER feed_servers_updated AFTER UPDATE ON "servers" FOR EACH ROW WHEN (${changed(FEED_SERVER_COLUMNS)}) EXECUTE FUNCTION feed_changed()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER feed_servers_deleted AFTER DELETE ON "servers" FOR EACH ROW EXECUTE FUNCTION feed_changed()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER feed_accounts_email AFTER UPDATE OF "email" ON "accounts" FOR EACH ROW WHEN (OLD."email" IS DISTINCT FROM NEW."email") EXECUTE FUNCTION feed_changed()`,
    );
    for (const table of ['subscription_traffic_days', 'server_reachability']) {
      await queryRunner.query(
        `CREATE TRIGGER feed_${table}_inserted AFTER INSERT ON "${table}" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION feed_changed()`,
      );
      await queryRunner.query(
        `CREATE TRIGGER feed_${table}_updated AFTER UPDATE ON "${table}" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION feed_changed()`,
      );
      await queryRunner.query(
        `CREATE TRIGGER feed_${table}_deleted AFTER DELETE ON "${table}" REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION feed_changed()`,
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['subscription_traffic_days', 'server_reachability']) {
      for (const event of ['inserted', 'updated', 'deleted']) {
        await queryRunner.query(`DROP TRIGGER feed_${table}_${event} ON "${table}"`);
      }
    }
    await queryRunner.query(`DROP TRIGGER feed_accounts_email ON "accounts"`);
    await queryRunner.query(`DROP TRIGGER feed_servers_deleted ON "servers"`);
    await queryRunner.query(`DROP TRIGGER feed_servers_updated ON "servers"`);
    await queryRunner.query(
      `DROP TRIGGER feed_subscription_servers_changed ON "subscription_servers"`,
    );
    await queryRunner.query(`DROP TRIGGER feed_subscriptions_changed ON "subscriptions"`);
    await queryRunner.query(`DROP FUNCTION feed_changed()`);
  }
}
