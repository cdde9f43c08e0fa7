import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { dataSourceOptions } from './data-source';
import { DatabaseHealth } from './database-health';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

async function healthOf(url: string): Promise<{ health: DatabaseHealth; dataSource: DataSource }> {
  const dataSource = await new DataSource(dataSourceOptions(url)).initialize();
  return { health: new DatabaseHealth(dataSource), dataSource };
}

describe('DatabaseHealth', () => {
  it('should answer the ping and report no pending migration when the database is migrated', async () => {
    const { health, dataSource } = await healthOf(db.url);
    try {
      await expect(health.ping()).resolves.toBeUndefined();
      await expect(health.migrationsPending()).resolves.toBe(false);
    } finally {
      await dataSource.destroy();
    }
  });

  it('should report a pending migration when one of this build is not applied', async () => {
    const { health, dataSource } = await healthOf(db.url);
    try {
      const [last] = await dataSource.query<Array<{ id: number }>>(
        'SELECT id FROM migrations ORDER BY id DESC LIMIT 1',
      );
      await dataSource.query('DELETE FROM migrations WHERE id = $1', [last!.id]);
      await expect(health.migrationsPending()).resolves.toBe(true);
    } finally {
      await dataSource.destroy();
    }
  });

  it('should reject the ping when the database cannot answer', async () => {
    const { health, dataSource } = await healthOf(db.url);
    await dataSource.destroy();
    await expect(health.ping()).rejects.toThrow();
  });
});
