import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

/** What the health probes ask the database, so that they need no data source of their own. */
@Injectable()
export class DatabaseHealth {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Resolves when the database answers a trivial query; rejects when it cannot. */
  async ping(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }

  /** Whether a migration of this build is not applied to the database yet. */
  migrationsPending(): Promise<boolean> {
    return this.dataSource.showMigrations();
  }
}
