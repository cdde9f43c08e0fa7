import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The folders of src/ depend on each other one way. When a imports b, b imports
 * nothing of a (a domain that needs to be called back names an interface, as SERVER_DELETION
 * does, or listens). Test files are left out: a spec may build fixtures from any domain.
 *
 * database/entities.ts is the entity registry TypeORM loads, a composition root like
 * app.module.ts: it imports every domain's entities, and every domain may use database/.
 */
const COMPOSITION_ROOTS = new Set(['database/entities.ts']);

const SRC = __dirname;

/** `from './x'`, `import('./x')`, `require('./x')`: the relative specifiers of a source text. */
function relativeImports(text: string): string[] {
  const found = text.matchAll(
    /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*)['"](\.[^'"]+)['"]/g,
  );
  return [...found].map((match) => match[1]!);
}

/** For each `a -> b` (folders of src/), the files of a that import b. */
export function folderEdges(files: ReadonlyMap<string, string>): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const [file, text] of files) {
    const from = file.split('/')[0]!;
    if (!file.includes('/') || COMPOSITION_ROOTS.has(file)) continue;
    for (const specifier of relativeImports(text)) {
      const target = relative(SRC, resolve(SRC, dirname(file), specifier)).split(sep);
      const to = target[0]!;
      // Outside src/ (test support), or a file at src/'s top level (main.ts, app.module.ts).
      if (to === '..' || target.length === 1 || to === from) continue;
      const key = `${from} -> ${to}`;
      edges.set(key, [...(edges.get(key) ?? []), file]);
    }
  }
  return edges;
}

/** Every pair of folders that import each other, with a file on each side. */
export function twoWayImports(files: ReadonlyMap<string, string>): string[] {
  const edges = folderEdges(files);
  const pairs: string[] = [];
  for (const [key, importers] of edges) {
    const [a, b] = key.split(' -> ') as [string, string];
    const back = edges.get(`${b} -> ${a}`);
    if (a < b && back) pairs.push(`${a} <-> ${b} (${importers[0]}, ${back[0]})`);
  }
  return pairs.sort();
}

function sourceFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    if (/\.(spec|db-spec|e2e-spec)\.ts$/.test(entry.name)) continue;
    files.set(relative(dir, path).split(sep).join('/'), readFileSync(path, 'utf8'));
  }
  return files;
}

describe('folder imports', () => {
  it('should find no two folders of src/ that import each other', () => {
    expect(twoWayImports(sourceFiles(SRC))).toEqual([]);
  });

  it('should report a pair when a folder imports one that imports it back', () => {
    const files = new Map([
      ['market/market.service.ts', `import { NodesService } from '../nodes/nodes.service';`],
      ['nodes/nodes.service.ts', `import type { X } from '../market/entities/x.entity';`],
      ['nodes/nodes.module.ts', `import { A } from './a';\nimport { C } from '../common/c';`],
      ['database/entities.ts', `import { S } from '../nodes/entities/server.entity';`],
      ['common/c.ts', `export const c = 1;`],
    ]);
    expect(twoWayImports(files)).toEqual([
      'market <-> nodes (market/market.service.ts, nodes/nodes.service.ts)',
    ]);
    expect([...folderEdges(files).keys()].sort()).toEqual([
      'market -> nodes',
      'nodes -> common',
      'nodes -> market',
    ]);
  });
});
