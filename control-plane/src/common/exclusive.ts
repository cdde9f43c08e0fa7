import type { DataSource } from 'typeorm';
import { queryRows } from './sql';

/**
 * Runs `work` unless another replica is running the same job now: a transaction-scoped
 * PostgreSQL advisory lock, released when the transaction ends. Returns null when skipped.
 * @deprecated use TransactionRunner.exclusive. Kept until the jobs in nodes/ and subscriptions/
 * have moved to it.
 */
export function runExclusive<T>(
  dataSource: DataSource,
  lockId: number,
  work: () => Promise<T>,
): Promise<T | null> {
  return dataSource.transaction(async (manager) => {
    const [row] = await queryRows<{ locked: boolean }>(
      manager,
      'SELECT pg_try_advisory_xact_lock($1) AS locked',
      [lockId],
    );
    return row?.locked ? work() : null;
  });
}
