import { randomBytes } from 'node:crypto';
import { Client, Pool } from 'pg';
import { runMigrations } from '../../src/database/migrate';

function adminUrl(): string {
  const url = process.env.SCN_TEST_ADMIN_URL;
  if (!url)
    throw new Error('SCN_TEST_ADMIN_URL is not set: run the tests through jest (global setup)');
  return url;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export interface TestDatabase {
  url: string;
  name: string;
  /** A plain pg client on this database, for assertions on what was (not) written. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/** A fresh, migrated database for one test file: files never see each other's rows. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `scn_test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();

  const url = withDatabase(adminUrl(), name);
  await runMigrations(url);
  const client = new Client({ connectionString: url });
  await client.connect();

  return {
    url,
    name,
    async query<T>(sql: string, params: unknown[] = []) {
      const result = await client.query(sql, params);
      return result.rows as T[];
    },
    async drop() {
      await client.end();
      const cleanup = new Client({ connectionString: adminUrl() });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/**
 * A database the test brings itself (e.g. its own embedded PostgreSQL, which it stops and starts
 * to test outages): migrated like a fresh one, never dropped. Its queries go through a small pool
 * that survives the server going away (a lost connection is replaced on the next query).
 */
export async function openTestDatabase(url: string): Promise<TestDatabase> {
  await runMigrations(url);
  const pool = new Pool({ connectionString: url, max: 2 });
  pool.on('error', () => undefined); // an idle connection lost in an outage: replaced later
  return {
    url,
    name: new URL(url).pathname.slice(1),
    async query<T>(sql: string, params: unknown[] = []) {
      const result = await pool.query(sql, params);
      return result.rows as T[];
    },
    drop: () => pool.end(),
  };
}
