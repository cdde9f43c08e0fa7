import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * One home per table's reads (docs/architecture.md, "Who reads which table"): a table is read by
 * the SQL of the domain that owns it (the folder of its entity); another domain asks the owner's
 * exported service, or reads a read model the owner publishes. This parses every source's SQL
 * (repositories, the SQL functions) for the tables it reads and fails on a new foreign read.
 */
const SRC = path.resolve(__dirname, '..');
const TEST_FILE = /\.(spec|db-spec|e2e-spec)\.ts$/;

/**
 * The read models published as views, by owner (migrations 1764000004310 and 1764000004320,
 * docs/architecture.md).
 */
const PUBLISHED_VIEWS: Readonly<Record<string, string>> = {
  server_directory: 'nodes',
  account_directory: 'accounts',
  wallet_balances: 'wallet',
  wallet_movements: 'wallet',
  subscription_directory: 'subscriptions',
  subscription_server_history: 'subscriptions',
  client_set_members: 'client-sets',
  client_set_versions: 'client-sets',
  traffic_days: 'traffic',
  reachability_estimates: 'reachability',
  listing_directory: 'market',
  auto_stake_settings: 'staking',
  stake_requirements: 'rewards',
};

/**
 * Documented read models and statements that read other domains' tables on purpose, each
 * described in docs/architecture.md. Keep this short: a new entry needs its reason there.
 */
const DOCUMENTED: ReadonlyArray<{ files: RegExp; why: string }> = [
  {
    // The market listing read model: built from servers, accounts and stakes by its triggers and
    // searched by the market's own statements.
    files: /^market\/(market\.repository\.ts|market-query\.ts|sql\/[a-z_]+\.sql)$/,
    why: 'market listing read model',
  },
  {
    // The purchase in one statement: client places, the wallet's lock and the ledger together.
    files:
      /^(subscriptions\/sql\/subscription_purchase(_batch)?\.sql|client-sets\/sql\/client_sets_take\.sql)$/,
    why: 'the purchase statement',
  },
];

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else out.push(path.relative(SRC, full));
  }
  return out;
}

const files = walk(SRC);

/** table -> owning domain, from the entities (`@Entity({ name: '...' })` in `<domain>/`). */
function owners(): Map<string, string> {
  const map = new Map<string, string>();
  for (const file of files.filter((f) => f.endsWith('.entity.ts'))) {
    const name = /@Entity\(\{\s*name:\s*'([a-z_]+)'/.exec(
      readFileSync(path.join(SRC, file), 'utf8'),
    );
    if (name) map.set(name[1]!, file.split('/')[0]!);
  }
  return map;
}

/** The tables a source reads: what follows FROM or JOIN (a DELETE's target is a write). */
export function tablesRead(source: string): Set<string> {
  const read = new Set<string>();
  for (const match of source.matchAll(
    /(?<!DELETE\s{1,20})\b(?:FROM|JOIN)\s+"?([a-z_][a-z0-9_]*)\b/g,
  )) {
    read.add(match[1]!);
  }
  return read;
}

/** Every `file table` where a domain's source reads a table another domain owns. */
function foreignReads(): string[] {
  const owner = owners();
  const found: string[] = [];
  for (const file of files) {
    if (!/\.(ts|sql)$/.test(file) || TEST_FILE.test(file)) continue;
    if (file.startsWith('database/migrations/')) continue;
    const domain = file.split('/')[0]!;
    for (const table of tablesRead(readFileSync(path.join(SRC, file), 'utf8'))) {
      const home = owner.get(table);
      if (home !== undefined && home !== domain) found.push(`${file} ${table}`);
    }
  }
  return found.sort();
}

describe('one home per table’s reads', () => {
  const reads = foreignReads();
  /** Whether a `file table` entry's file is one an exception names. */
  const covers = (pattern: RegExp, entry: string) => pattern.test(entry.split(' ')[0]!);
  const documented = (entry: string) =>
    DOCUMENTED.some(({ files: pattern }) => covers(pattern, entry));

  it('should read another domain’s table only through a published or documented read model', () => {
    const unexplained = reads.filter((entry) => !documented(entry));
    expect(unexplained).toEqual([]);
  });

  it('should keep no documented exception that covers no foreign read any more', () => {
    const idle = DOCUMENTED.filter(
      ({ files: pattern }) => !reads.some((entry) => covers(pattern, entry)),
    ).map(({ why }) => why);
    expect(idle).toEqual([]);
  });

  it('should publish every read model view from a migration, owned by a domain with tables', () => {
    const migrations = files
      .filter((file) => file.startsWith('database/migrations/') && !TEST_FILE.test(file))
      .map((file) => readFileSync(path.join(SRC, file), 'utf8'))
      .join('\n');
    const domains = new Set(owners().values());
    for (const [view, domain] of Object.entries(PUBLISHED_VIEWS)) {
      expect(migrations).toMatch(new RegExp(`CREATE VIEW ${view} AS`));
      expect(domains).toContain(domain);
      // A published view is not a table of anyone: reading it is never a foreign read.
      expect(owners().has(view)).toBe(false);
    }
  });

  it('should find the tables a statement reads, and not a DELETE’s target', () => {
    expect([
      ...tablesRead(
        `SELECT a.x FROM ledger_accounts a JOIN "servers" s ON s.id = a.owner_uuid
         LEFT JOIN server_directory d ON true; DELETE FROM sessions WHERE id IN (SELECT 1 FROM accounts)`,
      ),
    ]).toEqual(['ledger_accounts', 'servers', 'server_directory', 'accounts']);
  });
});
