import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The market trigger of `servers` updates finds its listings by key.
 *
 * `market_servers_updated` joins the statement's changed servers to `market_listings` by primary
 * key. For a report batch (tens of servers) PostgreSQL's default `random_page_cost` of 4, which
 * prices a random read as a disk seek, made the planner scan every listing twice instead: a
 * sequential scan of the whole table per batch, which grows with the network (bench/ingest, 2,000
 * nodes: 2.0 ms of the trigger's 2.2 ms with nothing to change; 0.8 ms with index probes). The
 * listings an agent batch touches are hot in shared buffers, so the function plans with the cost
 * of a cached random read; every other query keeps the server's setting.
 */
export class MarketTriggerPlans1764000000700 implements MigrationInterface {
  name = 'MarketTriggerPlans1764000000700';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER FUNCTION market_servers_updated() SET random_page_cost = 1.1`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER FUNCTION market_servers_updated() RESET random_page_cost`);
  }
}
