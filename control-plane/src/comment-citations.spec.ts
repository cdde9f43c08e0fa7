import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT } from './config/app-config';

/**
 * The repository explains itself: a comment, a test name or a document states its reason in
 * words, never by the number of an issue, which a reader of the repository cannot open. The
 * benchmark records are history (which change a figure belongs to) and may name issues.
 */
/** What git ignores: installed and built files. */
const SKIPPED_DIRECTORIES = new Set([
  'node_modules',
  'dist',
  'dist-bundle',
  '.git',
  '.nx',
  'coverage',
]);
const SKIPPED_FILES = new Set([
  'docs/benchmarks.md',
  'docs/benchmarks-log.md',
  'package-lock.json',
]);
const BINARY = /\.(png|jpe?g|gif|ico|webp|woff2?|ttf|gz|zip|apk|tgz|so|node|wasm)$/i;

/** The word, then a number (with or without §, "and", "#"); not the verb ("issue 6-digit codes"). */
const ISSUE_CITATION = /\b[Ii]ssues?\s+#?\d+(?![\d-])/;

function* textFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) yield* textFiles(path);
    } else if (entry.isFile() && !BINARY.test(entry.name)) {
      const rel = relative(REPO_ROOT, path).split('\\').join('/');
      if (!SKIPPED_FILES.has(rel) && statSync(path).size < 2_000_000) yield rel;
    }
  }
}

/** Every `file:line` of `text` that cites an issue by number. */
export function issueCitations(file: string, text: string): string[] {
  if (text.includes('\0')) return [];
  return text
    .split('\n')
    .flatMap((line, index) => (ISSUE_CITATION.test(line) ? [`${file}:${index + 1}`] : []));
}

describe('citations a reader can follow', () => {
  it('should recognise an issue citation and leave the verb alone', () => {
    const number = String(18);
    expect(issueCitations('a.ts', `// the rule (issue ${number} §4)`)).toEqual(['a.ts:1']);
    expect(issueCitations('a.ts', `x\n * Issues ${number} and 19: why`)).toEqual(['a.ts:2']);
    expect(issueCitations('a.ts', `-- see issue #${number}`)).toEqual(['a.ts:1']);
    expect(issueCitations('a.ts', "it('should issue 6-digit codes')")).toEqual([]);
    expect(issueCitations('a.ts', 'an issue of 12 bytes')).toEqual([]);
  });

  it('should cite no issue number anywhere in the repository (but the benchmark records)', () => {
    const found: string[] = [];
    for (const file of textFiles(REPO_ROOT)) {
      found.push(...issueCitations(file, readFileSync(join(REPO_ROOT, file), 'utf8')));
    }
    expect(found).toEqual([]);
  });
});
