import type { MigrationInterface } from 'typeorm';
import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from './test-database';
import { dataSourceOptions } from '../../src/database/data-source';

/** A migration's database spec: a fresh database (all migrations run) and one migration to step. */
export interface MigrationSpec {
  /** The spec's database, made before all its tests and dropped after them. */
  readonly db: TestDatabase;
  /** Runs the migration's `up` or `down` on its own connection, as the migration runner would. */
  run(step: 'up' | 'down'): Promise<void>;
}

/** Registers the database's set-up and tear-down in the calling spec; call at the top level. */
export function migrationSpec(migration: MigrationInterface): MigrationSpec {
  let db: TestDatabase | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());
  const current = (): TestDatabase => {
    if (!db) throw new Error('the migration spec database is made in beforeAll');
    return db;
  };
  return {
    get db() {
      return current();
    },
    run: async (step) => {
      const dataSource = new DataSource(dataSourceOptions(current().url));
      await dataSource.initialize();
      try {
        const runner = dataSource.createQueryRunner();
        await migration[step](runner);
        await runner.release();
      } finally {
        await dataSource.destroy();
      }
    },
  };
}
