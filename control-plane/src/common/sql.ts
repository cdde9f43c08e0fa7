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
