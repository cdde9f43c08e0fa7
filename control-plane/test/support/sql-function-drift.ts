import { Client } from 'pg';
import { allSqlFunctions } from '../../src/database/sql-functions';

/** How a database's SQL functions differ from their source files (all empty: none). */
export interface SqlFunctionDrift {
  /** A function whose definition (signature, language, settings, body) differs from its file. */
  differs: string[];
  /** A source file whose function the database does not have. */
  missing: string[];
  /** A function of the database (not an extension's) that has no source file. */
  unsourced: string[];
}

const SCRATCH = 'scn_sql_sources';

/** name -> pg_get_functiondef of every function of `schema` that no extension owns. */
async function definitions(client: Client, schema: string): Promise<Map<string, string>> {
  const { rows } = await client.query<{ name: string; def: string }>(
    `SELECT p.proname AS name, pg_get_functiondef(p.oid) AS def
     FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE n.nspname = $1 AND p.prokind IN ('f', 'p')
       AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass
                       AND d.objid = p.oid AND d.deptype = 'e')`,
    [schema],
  );
  const defs = new Map<string, string>();
  for (const { name, def } of rows) {
    // Overloads would need their signature in the file name: there are none.
    if (defs.has(name)) throw new Error(`${schema}.${name} is overloaded`);
    defs.set(name, def);
  }
  return defs;
}

/**
 * Compares the database's functions with the source files as PostgreSQL itself normalises both:
 * each source is created in a scratch schema (in a transaction rolled back at the end) and its
 * `pg_get_functiondef` compared with the database's, the schema name aside. So a difference of
 * body, arguments, result, language, volatility or settings (`SET random_page_cost`) counts, and
 * nothing else does.
 */
export async function sqlFunctionDrift(
  url: string,
  sources: ReadonlyArray<{ name: string; sql: string }> = allSqlFunctions(),
): Promise<SqlFunctionDrift> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const installed = await definitions(client, 'public');
    await client.query('BEGIN');
    try {
      await client.query(`CREATE SCHEMA ${SCRATCH}`);
      await client.query(`SET LOCAL search_path = ${SCRATCH}, public`);
      for (const { sql } of sources) await client.query(sql);
      const wanted = await definitions(client, SCRATCH);
      const drift: SqlFunctionDrift = { differs: [], missing: [], unsourced: [] };
      for (const [name, def] of wanted) {
        const actual = installed.get(name);
        if (actual === undefined) drift.missing.push(name);
        else if (actual !== def.replace(`FUNCTION ${SCRATCH}.`, 'FUNCTION public.')) {
          drift.differs.push(name);
        }
      }
      drift.unsourced = [...installed.keys()].filter((name) => !wanted.has(name));
      for (const list of Object.values(drift)) list.sort();
      return drift;
    } finally {
      await client.query('ROLLBACK');
    }
  } finally {
    await client.end();
  }
}

/** Every function definition of the database's public schema, by name (to compare databases). */
export async function sqlFunctionDefinitions(url: string): Promise<Map<string, string>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await definitions(client, 'public');
  } finally {
    await client.end();
  }
}
