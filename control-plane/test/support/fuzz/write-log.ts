import type { TestDatabase } from '../test-database';

export interface TableWrite {
  table: string;
  op: 'INSERT' | 'UPDATE' | 'DELETE' | 'TRUNCATE';
  rows: number;
}

/**
 * Records every change to every table of the test database: a statement-level trigger per table
 * and event appends the table, the event and the number of rows it changed (from the transition
 * table, so a statement that matched no row records nothing) to `fuzz_writes`. Only committed
 * changes are ever seen; a rolled-back transaction leaves no trace, as it leaves no change.
 * Test-only: installed in the fuzz suite's own database, never by a migration.
 */
export async function installWriteLog(db: TestDatabase): Promise<WriteLog> {
  await db.query(`
    CREATE TABLE fuzz_writes (
      id bigserial PRIMARY KEY,
      table_name text NOT NULL,
      op text NOT NULL,
      row_count bigint NOT NULL
    );
    CREATE FUNCTION fuzz_log_write() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      n bigint := -1;
    BEGIN
      IF TG_OP = 'DELETE' THEN
        SELECT count(*) INTO n FROM old_rows;
      ELSIF TG_OP IN ('INSERT', 'UPDATE') THEN
        SELECT count(*) INTO n FROM new_rows;
      END IF;
      IF n <> 0 THEN
        INSERT INTO fuzz_writes (table_name, op, row_count) VALUES (TG_TABLE_NAME, TG_OP, n);
      END IF;
      RETURN NULL;
    END $$;
  `);
  const tables = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c
     WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
       AND c.relname <> 'fuzz_writes' AND NOT c.relispartition`,
  );
  for (const { name } of tables) {
    const table = `"${name.replace(/"/g, '""')}"`;
    await db.query(`
      CREATE TRIGGER fuzz_w_insert AFTER INSERT ON ${table}
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION fuzz_log_write();
      CREATE TRIGGER fuzz_w_update AFTER UPDATE ON ${table}
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION fuzz_log_write();
      CREATE TRIGGER fuzz_w_delete AFTER DELETE ON ${table}
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION fuzz_log_write();
      CREATE TRIGGER fuzz_w_truncate AFTER TRUNCATE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION fuzz_log_write();
    `);
  }
  return new WriteLog(
    db,
    tables.map((t) => t.name),
  );
}

export class WriteLog {
  constructor(
    private readonly db: TestDatabase,
    /** The tables watched. */
    readonly tables: string[],
  ) {}

  /** The writes committed since the last call, removed from the log. */
  async drain(): Promise<TableWrite[]> {
    const rows = await this.db.query<{ table_name: string; op: TableWrite['op']; n: string }>(
      `WITH taken AS (DELETE FROM fuzz_writes RETURNING id, table_name, op, row_count)
       SELECT table_name, op, row_count::text AS n FROM taken ORDER BY id`,
    );
    return rows.map((r) => ({ table: r.table_name, op: r.op, rows: Number(r.n) }));
  }
}
