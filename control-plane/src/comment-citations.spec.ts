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

/** GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every `docs/product/<page>.md#<anchor>` cited in `text` that names no heading of the page. */
export function brokenProductLinks(
  text: string,
  anchorsOf: (page: string) => ReadonlySet<string> | null,
): string[] {
  const broken: string[] = [];
  for (const [link, page, anchor] of text.matchAll(/product\/([a-z-]+\.md)#([\p{L}\p{N}-]+)/gu)) {
    if (!anchorsOf(page!)?.has(anchor!)) broken.push(link);
  }
  return broken;
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

  it('should tell a product link that names no heading', () => {
    const anchors = (page: string) => (page === 'states.md' ? new Set(['a-state']) : null);
    expect(headingAnchor('Subscription and reliability states')).toBe(
      'subscription-and-reliability-states',
    );
    expect(brokenProductLinks('docs/product/states.md#a-state', anchors)).toEqual([]);
    expect(brokenProductLinks('(docs/product/states.md#gone)', anchors)).toEqual([
      'product/states.md#gone',
    ]);
    expect(brokenProductLinks('docs/product/none.md#a-state', anchors)).toEqual([
      'product/none.md#a-state',
    ]);
  });

  it('should link every product rule it cites to a heading of docs/product', () => {
    const anchors = new Map<string, Set<string>>();
    const productDir = join(REPO_ROOT, 'docs', 'product');
    for (const page of readdirSync(productDir).filter((name) => name.endsWith('.md'))) {
      const headings = readFileSync(join(productDir, page), 'utf8').match(/^#{1,6} .+$/gm) ?? [];
      anchors.set(page, new Set(headings.map((h) => headingAnchor(h.replace(/^#+ /, '')))));
    }
    const broken: string[] = [];
    for (const file of textFiles(REPO_ROOT)) {
      if (file === 'control-plane/src/comment-citations.spec.ts') continue; // its own examples
      const text = readFileSync(join(REPO_ROOT, file), 'utf8');
      if (text.includes('\0')) continue;
      for (const link of brokenProductLinks(text, (page) => anchors.get(page) ?? null)) {
        broken.push(`${file}: ${link}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('should cite no issue number anywhere in the repository (but the benchmark records)', () => {
    const found: string[] = [];
    for (const file of textFiles(REPO_ROOT)) {
      found.push(...issueCitations(file, readFileSync(join(REPO_ROOT, file), 'utf8')));
    }
    expect(found).toEqual([]);
  });
});
