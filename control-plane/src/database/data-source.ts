import 'reflect-metadata';
import { DataSource, type DataSourceOptions } from 'typeorm';
import type { DatabaseTimeouts } from '../config/app-config';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

/**
 * TypeORM options for the app, the migration CLI and the tests. Never `synchronize`.
 * `timeouts` (the app's, from DB_*_TIMEOUT_MS) bound how long a down or frozen database can hold
 * a request; migrations run without them (a long migration must not be cancelled half-way).
 */
export function dataSourceOptions(url: string, timeouts?: DatabaseTimeouts): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: [...ENTITIES],
    migrations: [...MIGRATIONS],
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    extra: {
      max: 20,
      application_name: 'scn-control-plane',
      // A peer that vanished without a FIN (lost network, dead host) is noticed by the kernel.
      keepAlive: true,
      ...(timeouts ? poolTimeouts(timeouts) : {}),
    },
  };
}

/** node-postgres pool and client settings; 0 means no limit (the setting is left out). */
function poolTimeouts(timeouts: DatabaseTimeouts): Record<string, number> {
  const set = (name: string, ms: number) => (ms > 0 ? { [name]: ms } : {});
  return {
    // Covers both a new connection and the wait for a free one when the pool is exhausted.
    connectionTimeoutMillis: timeouts.connectMs,
    ...set('statement_timeout', timeouts.statementMs),
    ...set('lock_timeout', timeouts.lockMs),
    ...set('query_timeout', timeouts.queryMs),
  };
}

/** For the TypeORM CLI (`migration:generate`): DATABASE_URL must be set. */
export default new DataSource(
  dataSourceOptions(process.env.DATABASE_URL ?? 'postgres://localhost/scn'),
);
