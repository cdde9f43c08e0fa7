import 'reflect-metadata';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

/** TypeORM options for the app, the migration CLI and the tests. Never `synchronize`. */
export function dataSourceOptions(url: string): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: [...ENTITIES],
    migrations: [...MIGRATIONS],
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    extra: { max: 20, application_name: 'scn-control-plane' },
  };
}

/** For the TypeORM CLI (`migration:generate`): DATABASE_URL must be set. */
export default new DataSource(
  dataSourceOptions(process.env.DATABASE_URL ?? 'postgres://localhost/scn'),
);
