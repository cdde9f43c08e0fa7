import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool, PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

export interface PoolStats {
  /** Connections open (idle, in use, and the two LISTEN connections held for good). */
  total: number;
  idle: number;
  /** Callers waiting for a free connection right now. */
  waiting: number;
  max: number;
}

/** How one wait for a connection of the pool ended, and how long it took. */
export type AcquireListener = (seconds: number, outcome: 'ok' | 'error') => void;

type ConnectCallback = (error: Error | undefined, client: PoolClient, release: () => void) => void;

/**
 * The connection pool TypeORM queries through (node-postgres's Pool), as the metrics see it: its
 * counts, and every wait for a connection timed. pg-pool tells neither when a wait began nor how
 * long it lasted, so `connect` (which every query and transaction goes through) is wrapped once.
 */
@Injectable()
export class DatabasePool {
  private readonly pool: Pool;
  private readonly listeners = new Set<AcquireListener>();

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.pool = (dataSource.driver as PostgresDriver).master as Pool;
    this.timeAcquisitions();
  }

  stats(): PoolStats {
    const { totalCount, idleCount, waitingCount, options } = this.pool;
    return { total: totalCount, idle: idleCount, waiting: waitingCount, max: options.max ?? 10 };
  }

  /** Calls `listener` after each wait for a connection; returns the unsubscribe. */
  onAcquire(listener: AcquireListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private timeAcquisitions(): void {
    type Connect = (callback?: ConnectCallback) => unknown;
    const pool = this.pool as unknown as { connect: Connect };
    const connect = pool.connect.bind(this.pool);
    const done = (started: number, outcome: 'ok' | 'error') => {
      const seconds = (performance.now() - started) / 1000;
      for (const listener of this.listeners) listener(seconds, outcome);
    };
    pool.connect = (callback?: ConnectCallback): unknown => {
      const started = performance.now();
      if (callback) {
        return connect((error, client, release) => {
          done(started, error ? 'error' : 'ok');
          callback(error, client, release);
        });
      }
      return (connect() as Promise<PoolClient>).then(
        (client) => {
          done(started, 'ok');
          return client;
        },
        (error: unknown) => {
          done(started, 'error');
          throw error;
        },
      );
    };
  }
}
