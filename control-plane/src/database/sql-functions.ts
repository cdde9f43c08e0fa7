import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CORE_DOWN_STATES, ECONOMICS, VPS_TIERS } from '@scn/proto';

/**
 * The PostgreSQL functions that carry rules (kept in SQL for speed: triggers, the purchase, the
 * ledger's writer, rate limits). Each one's current definition lives in one file,
 * `src/<domain>/sql/<function_name>.sql`: a `CREATE OR REPLACE FUNCTION` statement, with
 * `{{name}}` where a constant of @scn/proto goes. Migrations install a function through
 * `sqlFunction(name)`; sql-functions.db-spec fails when a migrated database's function differs
 * from its file. The build copies the files next to the compiled code (scripts/copy-sql.cjs), so
 * this reads them from src/ under the tests and from dist/ in production.
 *
 * To change a function: edit its file and add a migration that runs `sqlFunction(name)` (see
 * docs/development.md, "Changing a SQL function").
 */

/** The domain folders' parent: src/ (tests, ts sources) or dist/ (the build). */
const ROOT = path.resolve(__dirname, '..');

/** Constants the SQL sources use, from @scn/proto: never typed again in SQL. */
export const SQL_CONSTANTS: Readonly<Record<string, string>> = {
  // docs/product/constants.md#market-prices-and-limits: a tier's max clients; a server without a tier (manual) counts as the first.
  tierCapacityCases: VPS_TIERS.map((tier) => `WHEN '${tier.id}' THEN ${tier.maxClients}`).join(' '),
  defaultTierCapacity: String(VPS_TIERS[0]!.maxClients),
  // docs/product/states.md#subscription-and-reliability-states: hidden below 95, available at 50 or more.
  hideBelowReliabilityPercent: String(ECONOMICS.hideBelowReliabilityPercent),
  availableAtReliability: String(ECONOMICS.availableAtReliability),
  // docs/product/states.md#subscription-and-reliability-states: halving protection halves a server's allowed clients.
  hardwareAgeCutPercent: String(ECONOMICS.hardwareAgeCutPercent),
  // docs/product/states.md#market-and-account-states: the core states that disable a server, as a list for `core_state IN (...)`.
  coreDownStates: CORE_DOWN_STATES.map((state) => `'${state}'`).join(', '),
};

const NAME = /^[a-z_][a-z0-9_]*$/;

/** Every function source: name -> file path. */
export function sqlFunctionFiles(root: string = ROOT): Map<string, string> {
  const files = new Map<string, string>();
  for (const domain of readdirSync(root, { withFileTypes: true })) {
    const dir = path.join(root, domain.name, 'sql');
    if (!domain.isDirectory() || !existsSync(dir)) continue;
    for (const file of readdirSync(dir)) {
      if (!file.endsWith('.sql')) continue;
      const name = file.slice(0, -'.sql'.length);
      const other = files.get(name);
      if (other) throw new Error(`SQL function ${name} has two sources: ${other}, ${dir}`);
      if (!NAME.test(name))
        throw new Error(`SQL function file name ${file} is not a function name`);
      files.set(name, path.join(dir, file));
    }
  }
  return files;
}

/** Fills `{{name}}` in from SQL_CONSTANTS; an unknown name is an error. */
export function renderSql(source: string, origin: string): string {
  return source.replace(/\{\{\s*([A-Za-z]+)\s*\}\}/g, (_match, key: string) => {
    const value = SQL_CONSTANTS[key];
    if (value === undefined) throw new Error(`${origin}: unknown constant {{${key}}}`);
    return value;
  });
}

/**
 * The `CREATE OR REPLACE FUNCTION` statement of one function, from its source file, with the
 * constants filled in: what a migration runs.
 */
export function sqlFunction(name: string): string {
  const file = sqlFunctionFiles().get(name);
  if (!file)
    throw new Error(`no source file for SQL function ${name} (src/<domain>/sql/${name}.sql)`);
  const sql = renderSql(readFileSync(file, 'utf8'), file);
  const declared = /CREATE\s+OR\s+REPLACE\s+FUNCTION\s+([a-z_][a-z0-9_]*)\s*\(/i.exec(sql);
  if (declared?.[1] !== name) {
    throw new Error(`${file} must hold CREATE OR REPLACE FUNCTION ${name}(...)`);
  }
  return sql;
}

/** Every function's statement, in name order (the migration that installs them all runs these). */
export function allSqlFunctions(): Array<{ name: string; sql: string }> {
  return [...sqlFunctionFiles().keys()].sort().map((name) => ({ name, sql: sqlFunction(name) }));
}
