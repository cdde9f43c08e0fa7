import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
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

/**
 * Every link to a heading of a document that names none: `docs/<page>.md#<anchor>` anywhere, and in
 * a document also a relative `(<page>.md#<anchor>)` or `(#<anchor>)`. `anchorsOf` gives a page's
 * anchors by its path from the repository root (null for a page that does not exist).
 */
export function brokenDocLinks(
  file: string,
  text: string,
  anchorsOf: (page: string) => ReadonlySet<string> | null,
): string[] {
  const links: Array<[string, string, string]> = [];
  for (const [link, page, anchor] of text.matchAll(/\bdocs\/([\w./-]+?\.md)#([\p{L}\p{N}_-]+)/gu)) {
    links.push([link, `docs/${page}`, anchor!]);
  }
  if (file.endsWith('.md')) {
    const here = posix.dirname(file);
    for (const [link, page, anchor] of text.matchAll(
      /\]\((?!https?:|\/|docs\/)([\w./-]*?\.md)?#([\p{L}\p{N}_-]+)\)/gu,
    )) {
      links.push([link, page ? posix.normalize(posix.join(here, page)) : file, anchor!]);
    }
  }
  return links.filter(([, page, anchor]) => !anchorsOf(page)?.has(anchor)).map(([link]) => link);
}

/** The anchors of a Markdown page's headings (a repeated heading's get -1, -2, as on GitHub). */
export function pageAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const headings = markdown.replace(/```[\s\S]*?```/g, '').match(/^#{1,6} .+$/gm) ?? [];
  for (const heading of headings) {
    const anchor = headingAnchor(heading.replace(/^#+ /, ''));
    const times = seen.get(anchor) ?? 0;
    anchors.add(times ? `${anchor}-${times}` : anchor);
    seen.set(anchor, times + 1);
  }
  return anchors;
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

  it('should tell a link to a document’s heading that names none', () => {
    const pages: Record<string, Set<string>> = {
      'docs/product/states.md': new Set(['a-state']),
      'docs/api.md': new Set(['market-search']),
    };
    const anchors = (page: string) => pages[page] ?? null;
    expect(headingAnchor('Subscription and reliability states')).toBe(
      'subscription-and-reliability-states',
    );
    expect(brokenDocLinks('a.ts', 'docs/product/states.md#a-state', anchors)).toEqual([]);
    expect(brokenDocLinks('a.ts', '(docs/product/states.md#gone)', anchors)).toEqual([
      'docs/product/states.md#gone',
    ]);
    expect(brokenDocLinks('a.ts', 'docs/product/none.md#a-state', anchors)).toEqual([
      'docs/product/none.md#a-state',
    ]);
    // In a document, relative to it; in code, a Markdown link is not a path.
    const doc = '[a](product/states.md#a-state) [b](#market-search) [c](api.md#gone)';
    expect(brokenDocLinks('docs/api.md', doc, anchors)).toEqual(['](api.md#gone)']);
    expect(brokenDocLinks('a.ts', doc, anchors)).toEqual([]);
    expect([...pageAnchors('# A\n## Notes\n```\n# not a heading\n```\n## Notes')]).toEqual([
      'a',
      'notes',
      'notes-1',
    ]);
  });

  it('should link every heading it cites to a heading of that document', () => {
    const anchors = new Map<string, Set<string> | null>();
    const anchorsOf = (page: string) => {
      if (!anchors.has(page)) {
        const path = join(REPO_ROOT, page);
        anchors.set(page, existsSync(path) ? pageAnchors(readFileSync(path, 'utf8')) : null);
      }
      return anchors.get(page)!;
    };
    const broken: string[] = [];
    for (const file of textFiles(REPO_ROOT)) {
      if (file === 'control-plane/src/comment-citations.spec.ts') continue; // its own examples
      const text = readFileSync(join(REPO_ROOT, file), 'utf8');
      if (text.includes('\0')) continue;
      for (const link of brokenDocLinks(file, text, anchorsOf)) broken.push(`${file}: ${link}`);
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
