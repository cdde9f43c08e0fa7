import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { queryRows, RETRYABLE_SQL_STATES, sqlState } from '../common/sql';

/**
 * An open database transaction, as services see it: something to hand to repositories. Only
 * repositories run SQL on it (the type is TypeORM's, but a service never calls its methods).
 */
export type Transaction = EntityManager;

/** How many times `runRetrying` runs work whose transaction PostgreSQL rolled back. */
export const RETRY_ATTEMPTS = 3;

/**
 * Opens database transactions for services, so that the data source itself stays inside
 * repositories. Every transaction is READ COMMITTED; the rules that need more take row locks.
 */
@Injectable()
export class TransactionRunner {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /**
   * Runs `work` in a transaction and, when PostgreSQL rolled it back for a deadlock or a
   * serialization failure, runs it again in a new one (up to `RETRY_ATTEMPTS` in all). `work`
   * must therefore do nothing outside the database that it cannot do twice.
   */
  runRetrying<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.retrying(() => this.run(work));
  }

  /**
   * `runRetrying` for work that opens its own transaction itself (through a service of another
   * domain, such as `IdempotencyService.once`): runs it again when PostgreSQL rolled that
   * transaction back for a deadlock or a serialization failure (up to `RETRY_ATTEMPTS` in all).
   */
  async retrying<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await work();
      } catch (error) {
        const code = sqlState(error);
        if (attempt >= RETRY_ATTEMPTS || !code || !RETRYABLE_SQL_STATES.has(code)) throw error;
      }
    }
  }

  /**
   * Runs `work` in a transaction unless another replica holds the same job's lock now (a
   * transaction-scoped PostgreSQL advisory lock, released when the transaction ends). Returns
   * null when skipped.
   */
  exclusive<T>(lockId: number, work: (tx: Transaction) => Promise<T>): Promise<T | null> {
    return this.dataSource.transaction(async (tx) => {
      const [row] = await queryRows<{ locked: boolean }>(
        tx,
        'SELECT pg_try_advisory_xact_lock($1) AS locked',
        [lockId],
      );
      return row?.locked ? work(tx) : null;
    });
  }

  /**
   * Runs `work` (which opens its own transactions, e.g. one per batch) unless another replica
   * holds the same job's lock now: a session-level PostgreSQL advisory lock held on a connection
   * of its own for as long as `work` runs, released when it ends (or when the connection dies
   * with the process). Returns null when skipped.
   */
  async whileHolding<T>(lockId: number, work: () => Promise<T>): Promise<T | null> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const [row] = await queryRows<{ locked: boolean }>(
        runner,
        'SELECT pg_try_advisory_lock($1) AS locked',
        [lockId],
      );
      if (!row?.locked) return null;
      try {
        return await work();
      } finally {
        await runner.query('SELECT pg_advisory_unlock($1)', [lockId]);
      }
    } finally {
      await runner.release();
    }
  }
}
