import { createHash } from 'node:crypto';
import { DatabaseError, type Pool } from 'pg';
import { type DataSource, QueryFailedError } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

interface Queryable {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/**
 * Runs SQL and returns its rows. TypeORM's PostgreSQL driver answers UPDATE and DELETE with
 * `[rows, rowCount]` but INSERT and SELECT with the rows alone; this evens that out.
 */
export async function queryRows<T>(
  db: Queryable,
  sql: string,
  parameters: unknown[] = [],
): Promise<T[]> {
  const result = await db.query(sql, parameters);
  if (
    Array.isArray(result) &&
    result.length === 2 &&
    Array.isArray(result[0]) &&
    typeof result[1] === 'number'
  ) {
    return result[0] as T[];
  }
  return result as T[];
}

/**
 * Runs a statement as a named prepared statement of its pool connection: PostgreSQL parses and
 * analyses it once per connection instead of on every call. For hot statements with a fixed
 * text only (the name comes from the text, so the names stay bounded), outside a transaction.
 * A statement whose best plan depends on a parameter's value (a search pattern) must not be
 * prepared: a generic plan would be reused across values.
 */
/** Each fixed statement's name, hashed from its text once (hot paths call it per request). */
const PREPARED_NAMES = new Map<string, string>();

export async function queryPrepared<T>(
  dataSource: DataSource,
  sql: string,
  parameters: unknown[] = [],
): Promise<T[]> {
  const pool = (dataSource.driver as PostgresDriver).master as Pool;
  let name = PREPARED_NAMES.get(sql);
  if (name === undefined) {
    name = `scn_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    PREPARED_NAMES.set(sql, name);
  }
  const result = await pool.query({ name, text: sql, values: parameters });
  return result.rows as T[];
}

/** Deadlocks and serialization failures: the transaction was rolled back and may run again. */
export const RETRYABLE_SQL_STATES: ReadonlySet<string> = new Set(['40P01', '40001']);

/** PostgreSQL's SQLSTATE of a failed query (through TypeORM or straight from `pg`), if it is one. */
export function sqlState(error: unknown): string | undefined {
  if (error instanceof QueryFailedError)
    return (error.driverError as { code?: string } | undefined)?.code;
  return error instanceof DatabaseError ? error.code : undefined;
}
