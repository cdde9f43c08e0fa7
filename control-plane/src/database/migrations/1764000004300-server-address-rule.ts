import type { MigrationInterface, QueryRunner } from 'typeorm';
import { sqlFunction } from '../sql-functions';

/** The market's address rule before this migration: host and port present, for every source. */
const PREVIOUS_HAS_ADDRESS = '(n.host IS NOT NULL AND n.port IS NOT NULL) AS has_address';

/** The rule now (nodes/server-address.ts hasDialableAddress), as the market's SQL writes it. */
const HAS_ADDRESS =
  "COALESCE(n.host <> '' AND n.port > 0 AND (n.source <> 'manual' OR n.vless_string <> ''), false) AS has_address";

/**
 * One address rule for the market's listing and the purchase: a listing has an address when its
 * server has a host and a port, and a manual server its stored link too (the purchase asked only
 * for the link of a manual server, the listing only for host and port). The listings written
 * under the old rule are brought to the new one.
 */
export class ServerAddressRule1764000004300 implements MigrationInterface {
  name = 'ServerAddressRule1764000004300';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(sqlFunction('market_servers_inserted'));
    await queryRunner.query(sqlFunction('market_servers_updated'));
    await this.relist(queryRunner, HAS_ADDRESS);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const name of ['market_servers_inserted', 'market_servers_updated']) {
      await queryRunner.query(sqlFunction(name).replaceAll(HAS_ADDRESS, PREVIOUS_HAS_ADDRESS));
    }
    await this.relist(queryRunner, PREVIOUS_HAS_ADDRESS);
  }

  /** Every listing's `has_address` by `rule` (market_listings_derive derives the rest). */
  private async relist(queryRunner: QueryRunner, rule: string): Promise<void> {
    const expression = rule.replace(/ AS has_address$/, '');
    await queryRunner.query(
      `UPDATE market_listings l SET has_address = ${expression}
       FROM servers n WHERE n.id = l.server_id AND l.has_address IS DISTINCT FROM ${expression}`,
    );
  }
}
