import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { ECONOMICS, VPS_TIERS } from '@scn/proto';
import {
  sqlFunctionDefinitions,
  sqlFunctionDrift,
  type SqlFunctionDrift,
} from '../../test/support/sql-function-drift';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { dataSourceOptions } from './data-source';
import { runMigrations } from './migrate';
import { MIGRATIONS } from './migrations';
import { SqlFunctionSources1764000001800 } from './migrations/1764000001800-sql-function-sources';
import { allSqlFunctions, sqlFunction, sqlFunctionFiles } from './sql-functions';

const NO_DRIFT: SqlFunctionDrift = { differs: [], missing: [], unsourced: [] };

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

describe('SQL function sources (src/<domain>/sql)', () => {
  it('should match every function of a freshly migrated database exactly', async () => {
    expect(await sqlFunctionDrift(db.url)).toEqual(NO_DRIFT);
    expect(sqlFunctionFiles().size).toBeGreaterThanOrEqual(20);
  });

  it('should report a function changed in the database (tampered) until the source is applied again', async () => {
    await db.query(`CREATE OR REPLACE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RETURN NEW;
END $$`);
    // A setting only (no body change) counts too.
    await db.query(`ALTER FUNCTION market_servers_updated() RESET random_page_cost`);
    expect(await sqlFunctionDrift(db.url)).toEqual({
      ...NO_DRIFT,
      differs: ['ledger_append_only', 'market_servers_updated'],
    });
    await db.query(sqlFunction('ledger_append_only'));
    await db.query(sqlFunction('market_servers_updated'));
    expect(await sqlFunctionDrift(db.url)).toEqual(NO_DRIFT);
  });

  it('should report a database function without a source and a source without a function', async () => {
    await db.query(`CREATE FUNCTION stray_rule() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$`);
    try {
      const sources = [
        ...allSqlFunctions(),
        {
          name: 'never_migrated',
          sql: `CREATE OR REPLACE FUNCTION never_migrated() RETURNS int LANGUAGE sql AS $$ SELECT 2 $$`,
        },
      ];
      expect(await sqlFunctionDrift(db.url, sources)).toEqual({
        differs: [],
        missing: ['never_migrated'],
        unsourced: ['stray_rule'],
      });
    } finally {
      await db.query(`DROP FUNCTION stray_rule()`);
    }
  });

  it('should fill the constants in from @scn/proto (tier capacity, reliability thresholds)', async () => {
    for (const tier of VPS_TIERS) {
      const [row] = await db.query<{ c: number }>(`SELECT market_capacity($1) AS c`, [tier.id]);
      expect(row?.c).toBe(tier.maxClients);
    }
    // docs/product/constants.md#market-prices-and-limits: a server without a tier (added without the agent) takes the smallest tier's.
    const [manual] = await db.query<{ c: number }>(`SELECT market_capacity(NULL) AS c`);
    expect(manual?.c).toBe(VPS_TIERS[0]!.maxClients);
    const derive = sqlFunction('market_listing_derive');
    expect(derive).toContain(`NEW.reliability >= ${ECONOMICS.hideBelowReliabilityPercent}`);
    expect(derive).toContain(`NEW.reliability < ${ECONOMICS.availableAtReliability}`);
    for (const { name, sql } of allSqlFunctions()) {
      expect({ name, placeholders: sql.match(/\{\{|\}\}/g) }).toEqual({ name, placeholders: null });
    }
  });

  it('should refuse to load a function that has no source file', () => {
    expect(() => sqlFunction('no_such_function')).toThrow(/no source file/);
  });
});

describe('migration 1800 on a database migrated before it', () => {
  const name = `scn_test_${randomBytes(6).toString('hex')}`;
  const adminUrl = () => process.env.SCN_TEST_ADMIN_URL!;
  const url = () => {
    const parsed = new URL(adminUrl());
    parsed.pathname = `/${name}`;
    return parsed.toString();
  };
  async function admin(sql: string): Promise<void> {
    const client = new Client({ connectionString: adminUrl() });
    await client.connect();
    await client.query(sql);
    await client.end();
  }
  afterAll(() => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));

  it('should leave it with exactly the functions of a fresh database', async () => {
    await admin(`CREATE DATABASE ${name}`);
    // Migrated to 1300 (today's schema), its functions as that head's migrations wrote them.
    const before = MIGRATIONS.indexOf(SqlFunctionSources1764000001800);
    const dataSource = new DataSource({
      ...dataSourceOptions(url()),
      migrations: MIGRATIONS.slice(0, before),
    });
    await dataSource.initialize();
    try {
      await dataSource.runMigrations({ transaction: 'each' });
      const recorded = readFileSync(
        path.join(__dirname, '../../test/support/sql-functions-at-1300.sql'),
        'utf8',
      );
      await dataSource.query(recorded);
      // The functions that head did not have yet (nothing of its own calls them).
      await dataSource.query(`DROP FUNCTION ledger_post(jsonb)`);
      await dataSource.query(`DROP FUNCTION client_sets_take(jsonb, uuid, text)`);
      await dataSource.query(`DROP FUNCTION market_counts_apply(market_counts[])`);
    } finally {
      await dataSource.destroy();
    }
    const old = await sqlFunctionDrift(url());
    // Those three, and the functions of later migrations (1764000002700: the market's halving
    // capacity and stakers first; 1764000003000: higher promotions first; 1764000004100: the
    // two-character search pieces; 1764000004250: the feed's invalidation).
    expect(old.missing).toEqual([
      'client_sets_take',
      'feed_changed',
      'ledger_post',
      'market_allowed_clients',
      'market_counts_apply',
      'market_listing_promotion',
      'market_listing_staker',
      'market_search_pairs',
      'market_server_capacity_changed',
      'market_stake_changed',
    ]);
    expect(old.differs).toEqual(
      expect.arrayContaining(['market_listings_count_updated', 'subscription_purchase']),
    );

    expect(await runMigrations(url())).toContain('SqlFunctionSources1764000001800');
    expect(await sqlFunctionDrift(url())).toEqual(NO_DRIFT);
    expect(await sqlFunctionDefinitions(url())).toEqual(await sqlFunctionDefinitions(db.url));
  });
});
