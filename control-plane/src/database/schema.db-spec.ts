import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { dataSourceOptions } from './data-source';
import { runMigrations } from './migrate';
import { MIGRATIONS } from './migrations';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

describe('migrations', () => {
  it('should produce exactly the schema the entities describe (no drift)', async () => {
    const dataSource = new DataSource(dataSourceOptions(db.url));
    await dataSource.initialize();
    try {
      const pending = await dataSource.driver.createSchemaBuilder().log();
      expect(pending.upQueries.map((q) => q.query)).toEqual([]);
    } finally {
      await dataSource.destroy();
    }
  });

  it('should do nothing when run again', async () => {
    expect(await runMigrations(db.url)).toEqual([]);
  });

  it('should revert every migration cleanly and apply them again', async () => {
    const dataSource = new DataSource(dataSourceOptions(db.url));
    await dataSource.initialize();
    try {
      for (let i = 0; i < MIGRATIONS.length; i += 1) await dataSource.undoLastMigration();
      const tables = await dataSource.query(
        `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'migrations'`,
      );
      expect(tables).toEqual([]);
    } finally {
      await dataSource.destroy();
    }
    expect(await runMigrations(db.url)).toHaveLength(MIGRATIONS.length);
  });
});
