import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/database/embedded-postgres';
import { TEMPLATE_ENV, createTemplateDatabase } from './test-database';

declare global {
  var __SCN_TEST_PG__: EmbeddedDatabase | undefined;
}

/**
 * Tests run against real PostgreSQL: the server in DATABASE_URL (CI), else an embedded one
 * started here for this run. A migrated template is made once here; each test file then
 * creates its own database as a copy of it (test-database.ts).
 */
export default async function globalSetup(): Promise<void> {
  // Once per run: the unit and the end-to-end projects of one jest run share the database.
  if (process.env.SCN_TEST_ADMIN_URL) return;
  if (process.env.DATABASE_URL) {
    process.env.SCN_TEST_ADMIN_URL = process.env.DATABASE_URL;
    process.stdout.write(`\n[tests] PostgreSQL from DATABASE_URL\n`);
  } else {
    await startEmbedded();
  }
  process.env[TEMPLATE_ENV] = await createTemplateDatabase();
}

async function startEmbedded(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'scn-test-pg-'));
  chmodSync(dir, 0o755); // as root, postgres runs as its own user and must reach the folder
  const port = 55000 + (process.pid % 5000);
  globalThis.__SCN_TEST_PG__ = await startEmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    database: 'postgres',
  });
  process.env.SCN_TEST_ADMIN_URL = globalThis.__SCN_TEST_PG__.url;
  process.stdout.write(`\n[tests] embedded PostgreSQL on port ${port} (DATABASE_URL not set)\n`);
}
