import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source';
import { createTestDatabase, type TestDatabase } from './test-database';

/**
 * A repository db-spec's database (its own, dropped after the file) and a TypeORM data source
 * on it, opened before the file's tests and closed after them.
 */
export function repositoryDatabase(): {
  readonly db: TestDatabase;
  readonly dataSource: DataSource;
} {
  const opened = {} as { db: TestDatabase; dataSource: DataSource };
  beforeAll(async () => {
    opened.db = await createTestDatabase();
    opened.dataSource = await new DataSource(dataSourceOptions(opened.db.url)).initialize();
  });
  afterAll(async () => {
    await opened.dataSource.destroy();
    await opened.db.drop();
  });
  return opened;
}

/** An agent server (tier 1, reported now) of a new operator of its own; answers its id. */
export async function insertAgentServer(db: TestDatabase): Promise<string> {
  const owner = randomUUID();
  await db.query(
    `INSERT INTO accounts (uuid, email, user_type, password_hash, name) VALUES ($1, $2, 'node', 'x', 'x')`,
    [owner, `${owner}@example.com`],
  );
  const id = randomUUID();
  await db.query(
    `INSERT INTO servers (id, owner_uuid, name, source, tier, secret_hash, host, port, inbound, hardware, last_report_at)
     VALUES ($1, $2, 'n', 'agent', 'tier1', $3, 'h.example', 443, '{"security":"tls"}', '{"cpuCores":2}', now())`,
    [id, owner, 'a'.repeat(64)],
  );
  return id;
}
