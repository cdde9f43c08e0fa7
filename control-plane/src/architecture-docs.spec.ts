import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { REPO_ROOT } from './config/app-config';
import { JOBS } from './jobs/job-registry';

/**
 * docs/architecture.md describes two things the code already knows: which folder of src/ imports
 * which (the table under "Control plane layout") and the periodic jobs (the table under
 * "Background jobs"). Both are derived here from the sources and compared with the document, so
 * a new domain, a new import between domains or a new job fails until the document says so.
 */

const SRC = __dirname;
const DOC = join(REPO_ROOT, 'docs', 'architecture.md');

/**
 * Folders any domain may use, left out of the "Depends on" column and given no row of their own
 * (the layout block above the table describes them).
 */
const INFRASTRUCTURE = new Set(['common', 'config', 'database', 'jobs']);

/** The non-spec TypeScript sources of src/, by path relative to src/ with `/` separators. */
function sourceFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(SRC, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    if (/\.(spec|db-spec|e2e-spec)\.ts$/.test(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(SRC, path).split(sep).join('/'), readFileSync(path, 'utf8'));
  }
  return files;
}

/** For each folder of src/ (infrastructure left out), the folders it imports, sorted. */
export function domainDependencies(files: ReadonlyMap<string, string>): Map<string, string[]> {
  const deps = new Map<string, Set<string>>();
  for (const [file, text] of files) {
    if (!file.includes('/')) continue; // main.ts, app.module.ts: the composition root
    const from = file.split('/')[0]!;
    if (INFRASTRUCTURE.has(from)) continue;
    const targets = deps.get(from) ?? new Set<string>();
    deps.set(from, targets);
    const specifiers = text.matchAll(
      /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*)['"](\.[^'"]+)['"]/g,
    );
    for (const [, specifier] of specifiers) {
      const target = relative(SRC, resolve(SRC, dirname(file), specifier!)).split(sep);
      const to = target[0]!;
      if (to === '..' || target.length === 1 || to === from || INFRASTRUCTURE.has(to)) continue;
      targets.add(to);
    }
  }
  return new Map([...deps].map(([from, to]) => [from, [...to].sort()]));
}

/** The rows of the first markdown table after `heading`, as trimmed cells. */
export function tableAfter(markdown: string, heading: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`docs/architecture.md has no heading "${heading}"`);
  const first = lines.findIndex((line, i) => i > start && line.startsWith('|'));
  if (first < 0) throw new Error(`No table after "${heading}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(first)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
  }
  return rows.slice(2); // the header and its separator
}

/**
 * The dependency table as documented: folder -> dependencies, sorted. A dependency may carry a
 * note in parentheses (`rewards (its rules)`); only the names count.
 */
export function documentedDependencies(markdown: string): Map<string, string[]> {
  const table = new Map<string, string[]>();
  for (const [folder, , dependsOn] of tableAfter(markdown, '## Control plane layout')) {
    const name = /^`([a-z0-9-]+)`$/.exec(folder ?? '')?.[1];
    if (!name) throw new Error(`Not a folder in backquotes: ${folder}`);
    const names = (dependsOn ?? '')
      .replace(/\([^)]*\)/g, '')
      .split(',')
      .map((dep) => dep.trim())
      .filter((dep) => dep !== '');
    table.set(name, [...names].sort());
  }
  return table;
}

const UNITS: Record<string, number> = { s: 1000, min: 60_000, h: 3_600_000 };

export interface DocumentedJob {
  readonly name: string;
  readonly domain: string;
  readonly intervalMs: number;
  readonly lockId: number | null;
}

/** The jobs table: `name` | `domain` | every (`1 s`, `5 min`, `6 h`) | lock id or "none" | ... */
export function documentedJobs(markdown: string): DocumentedJob[] {
  return tableAfter(markdown, '## Background jobs').map(([name, domain, every, lock]) => {
    const interval = /^(\d+) (s|min|h)\b/.exec(every ?? '');
    if (!interval) throw new Error(`Not an interval: ${every}`);
    return {
      name: (name ?? '').replace(/`/g, ''),
      domain: (domain ?? '').replace(/`/g, ''),
      intervalMs: Number(interval[1]) * UNITS[interval[2]!]!,
      lockId: lock === 'none' ? null : Number((lock ?? '').replace(/[\s,]/g, '')),
    };
  });
}

/** Each job of the registry with the folder whose `*.job.ts` starts it. */
function registeredJobs(files: ReadonlyMap<string, string>): DocumentedJob[] {
  return Object.entries(JOBS).map(([key, job]) => {
    const starters = [...files]
      .filter(([file, text]) => /\.job\.ts$/.test(file) && text.includes(`start(JOBS.${key},`))
      .map(([file]) => file.split('/')[0]!);
    return {
      name: job.name,
      domain: starters.join(', '),
      intervalMs: job.intervalMs,
      lockId: job.lockId,
    };
  });
}

const byName = (a: { name: string }, b: { name: string }): number => a.name.localeCompare(b.name);

describe('docs/architecture.md', () => {
  const markdown = readFileSync(DOC, 'utf8');
  const files = sourceFiles();

  it('should list every folder of src/ with the folders it imports, and no other', () => {
    const actual = Object.fromEntries([...domainDependencies(files)].sort());
    const documented = Object.fromEntries([...documentedDependencies(markdown)].sort());
    expect(documented).toEqual(actual);
  });

  it('should list every periodic job of the registry with its domain, interval and lock', () => {
    expect([...documentedJobs(markdown)].sort(byName)).toEqual(
      [...registeredJobs(files)].sort(byName),
    );
  });

  it('should read a dependency with a note, and a job row, as the tables write them', () => {
    const doc = [
      '## Control plane layout',
      '',
      '| Folder | What | Depends on |',
      '| --- | --- | --- |',
      '| `staking` | stakes | wallet, rewards (its rules) |',
      '| `accounts` | accounts | |',
      '',
      '## Background jobs',
      '',
      '| Job | Domain | Every | Lock | What |',
      '| --- | --- | --- | --- | --- |',
      '| `rewards` | `rewards` | 5 min | 4202680 | pays |',
      '| `apk-mirror` | `downloads` | 6 h | none | copies |',
    ].join('\n');
    expect(documentedDependencies(doc)).toEqual(
      new Map([
        ['staking', ['rewards', 'wallet']],
        ['accounts', []],
      ]),
    );
    expect(documentedJobs(doc)).toEqual([
      { name: 'rewards', domain: 'rewards', intervalMs: 300_000, lockId: 4_202_680 },
      { name: 'apk-mirror', domain: 'downloads', intervalMs: 21_600_000, lockId: null },
    ]);
  });

  it('should derive a dependency from a relative import and leave infrastructure out', () => {
    const deps = domainDependencies(
      new Map([
        ['staking/a.ts', `import { L } from '../wallet/ledger.service';\nimport '../common/x';`],
        ['staking/b.ts', `const r = await import('../rewards/rules');`],
        ['wallet/ledger.service.ts', `import { J } from '../jobs/job-registry';`],
        ['main.ts', `import { X } from './staking/a';`],
      ]),
    );
    expect(deps).toEqual(
      new Map([
        ['staking', ['rewards', 'wallet']],
        ['wallet', []],
      ]),
    );
  });
});
