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

/** The environment variable naming the run's migrated template (global-setup.ts). */
export const TEMPLATE_ENV = 'SCN_TEST_TEMPLATE_DB';

/**
 * Makes the migrated database this run's test databases are copied from, once (the global
 * setup): a copy (`CREATE DATABASE ... TEMPLATE`) costs a fraction of running every migration
 * again. Nothing connects to it afterwards, as a copy requires.
 */
export async function createTemplateDatabase(): Promise<string> {
  const name = `scn_template_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  try {
    await runMigrations(withDatabase(adminUrl(), name));
  } catch (error) {
    await dropTemplateDatabase(name);
    throw error;
  }
  return name;
}

export async function dropTemplateDatabase(name: string): Promise<void> {
  await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

async function adminQuery(sql: string): Promise<void> {
  const admin = new Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/**
 * A fresh, migrated database for one test file: files never see each other's rows. A copy of the
 * run's template when the global setup made one, else created and migrated here.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `scn_test_${randomBytes(6).toString('hex')}`;
  const template = process.env[TEMPLATE_ENV];
  await adminQuery(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);

  const url = withDatabase(adminUrl(), name);
  // On a copy this only confirms that no migration is pending.
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
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
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
