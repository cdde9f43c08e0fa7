import { DataSource } from 'typeorm';
import { OTHER_LOCKS } from '../jobs/job-registry';
import { dataSourceOptions } from './data-source';

/** Shared by every replica: one migrates, the others wait. */
const MIGRATION_LOCK_ID = OTHER_LOCKS.migrations;

/**
 * Applies pending migrations under a PostgreSQL advisory lock, so replicas that start together
 * never run the same migration twice.
 */
export async function runMigrations(url: string): Promise<string[]> {
  const dataSource = new DataSource(dataSourceOptions(url));
  await dataSource.initialize();
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await runner.release();
    await dataSource.destroy();
  }
}

if (require.main === module) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error('DATABASE_URL is required to run migrations');
    process.exit(2);
  }
  runMigrations(url).then(
    (names) => console.log(names.length ? `Applied: ${names.join(', ')}` : 'Schema is up to date'),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
