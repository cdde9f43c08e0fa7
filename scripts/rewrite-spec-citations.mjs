#!/usr/bin/env node
/**
 * Rewrites the citations of the two product specifications that are not in this repository
 * ("spec 01 §9", "spec 02 sections 3-4", "spec 01 §4, §5") into the anchors of docs/product/,
 * which state the same rules in the repository's own words (docs/product/README.md).
 *
 *   node scripts/rewrite-spec-citations.mjs           rewrite every file, print what changed
 *   node scripts/rewrite-spec-citations.mjs --check   change nothing; exit 1 if a citation remains
 *   node scripts/rewrite-spec-citations.mjs --root <dir>   work on another checkout
 *   node scripts/rewrite-spec-citations.mjs --no-format    leave the changed files unformatted
 *
 * A citation becomes longer, so the changed files Prettier can parse are formatted afterwards
 * with the repository's Prettier and settings (a test name or a table may wrap differently).
 *
 * Idempotent: a rewritten citation no longer matches, so a second run changes nothing.
 *
 * Only comments are rewritten (scripts/lib/comments.mjs finds them): a string literal, a test
 * name or a page's text is what someone reads outside the source, and stays as it is; --check
 * lists those apart and fails only on comments. In `.sql` files a comment inside a function body
 * (a dollar quote) is not rewritten either: a body is what the database stores, so changing it
 * needs a migration (docs/development.md, "Changing a SQL function"). In the Markdown pages of
 * docs/ (outside code blocks) a citation becomes a link to the heading.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, posix, relative, resolve, sep } from 'node:path';
import { commentBlocks, SKIP_DIRS } from './lib/comments.mjs';

/** Spec section -> docs/product anchor. One anchor per section (docs/product/README.md). */
export const ANCHORS = {
  '01': {
    1: 'overview.md#what-scn-is',
    2: 'screens.md#the-shell-and-the-market-screens',
    3: 'records.md#market-and-wallet-records',
    4: 'states.md#market-and-account-states',
    5: 'input-rules.md#market-and-account-input',
    6: 'roles.md#who-may-use-the-market-and-wallet',
    7: 'calls.md#market-and-account-calls',
    8: 'messages.md#market-and-account-messages',
    9: 'constants.md#market-prices-and-limits',
  },
  '02': {
    1: 'overview.md#clients-and-node-operators',
    2: 'screens.md#dashboards-and-information-pages',
    3: 'records.md#dashboard-records',
    4: 'states.md#subscription-and-reliability-states',
    5: 'input-rules.md#dashboard-input',
    6: 'roles.md#who-may-use-the-dashboards',
    7: 'calls.md#dashboard-calls',
    8: 'messages.md#dashboard-messages',
    9: 'constants.md#billing-and-the-economy',
  },
};

const EXTENSIONS = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx|sql|proto|sh|css|md)$/;
/** The product docs themselves, and this script (its own table and examples). */
const SKIP_FILES = new Set(['scripts/rewrite-spec-citations.mjs']);
const SKIP_PREFIXES = ['docs/product/'];

/** Anything that still names a spec section: what --check looks for. */
const LEFTOVER = /\bspec\s*0[12]\b\s*(?:§|sections?\b)/i;

/**
 * One pass over the text, token by token, remembering which spec the current comment cites:
 * - `spec 01 §4`, `spec 02 section 4`, `spec 02 sections 3-4`: a citation, and the spec in force;
 * - `02 §4` or a bare `§5`, `§3-4` while a spec is in force: more sections of it
 *   ("spec 01 §2 Withdraw modal, §5 withdrawal rules", "spec 01 §9, 02 §4");
 * - an issue's section: another document's section, left as it is, and no spec in force after it;
 * - the end of a comment (its closing mark, a blank line, a line that is no comment line): no
 *   spec in force.
 */
const TOKEN = new RegExp(
  [
    /\bspec\s*(0[12])\s*(?:§\s*|sections?\s+)(\d)(?:\s*[-–]\s*(\d))?/.source,
    /\bissue\s+\d+\s*§\s*\d+(?:\s*[-–]\s*\d+)?/.source,
    /\b(0[12])\s*§\s*(\d)(?:\s*[-–]\s*(\d))?/.source,
    /§\s*(\d)(?:\s*[-–]\s*(\d))?(?!\d)/.source,
    /\*\/|\n(?!\s*(?:\/\/|\*|--|#|\/\*))/.source,
  ].join('|'),
  'gi',
);

/** How a citation is written: a path in a comment, a Markdown link in a page. */
let citationOf = (anchor) => `docs/product/${anchor}`;

function anchorFor(spec, section) {
  const anchor = ANCHORS[spec]?.[section];
  if (!anchor) throw new Error(`spec ${spec} §${section} has no anchor in docs/product`);
  return citationOf(anchor);
}

function range(from, to) {
  const out = [];
  for (let n = Number(from); n <= Number(to ?? from); n++) out.push(n);
  return out;
}

/** Rewrites the citations of one text; returns the new text and how many sections it cited. */
export function rewriteText(text) {
  let count = 0;
  let spec = null;
  const cite = (from, to) => {
    const sections = range(from, to);
    count += sections.length;
    return [...new Set(sections.map((section) => anchorFor(spec, section)))].join(', ');
  };
  const next = text.replace(TOKEN, (match, s1, a1, b1, s2, a2, b2, a3, b3) => {
    if (s1) {
      spec = s1;
      return cite(a1, b1);
    }
    if (s2) {
      if (spec === null) return match;
      spec = s2;
      return cite(a2, b2);
    }
    if (a3) return spec === null ? match : cite(a3, b3);
    spec = null; // an issue's section, or the end of a comment
    return match;
  });
  return { text: next, count };
}

/** The heading text an anchor names (docs/product), for a Markdown link's text. */
function headingOf(root, anchor) {
  const [file, slugged] = anchor.split('#');
  const text = readFileSync(join(root, 'docs', 'product', file), 'utf8');
  const heading = [...text.matchAll(/^#{1,6}\s+(.+)$/gm)].find((m) => slug(m[1]) === slugged);
  return heading ? heading[1].trim() : anchor;
}

/** Rewrites the given [start, end) spans of a text and nothing else. */
function rewriteSpans(text, spans) {
  let out = '';
  let at = 0;
  let count = 0;
  for (const [start, end] of spans) {
    const part = rewriteText(text.slice(start, end));
    out += text.slice(at, start) + part.text;
    count += part.count;
    at = end;
  }
  return { text: out + text.slice(at), count };
}

/** The spans of a Markdown page outside fenced code blocks and code spans. */
function markdownSpans(text) {
  const spans = [];
  const code = /```[\s\S]*?```|`[^`\n]*`/g;
  let at = 0;
  for (const m of text.matchAll(code)) {
    spans.push([at, m.index]);
    at = m.index + m[0].length;
  }
  spans.push([at, text.length]);
  return spans;
}

/** Comments only; in a Markdown page of docs/, the prose, with links relative to the page. */
function rewriteFile(root, rel, text) {
  if (!rel.endsWith('.md')) {
    citationOf = (anchor) => `docs/product/${anchor}`;
    return rewriteSpans(text, commentBlocks(rel, text));
  }
  if (!rel.startsWith('docs/')) return { text, count: 0 };
  const from = posix.dirname(rel);
  citationOf = (anchor) =>
    `[${headingOf(root, anchor)}](${posix.relative(from, `docs/product/${anchor.split('#')[0]}`)}#${anchor.split('#')[1]})`;
  return rewriteSpans(text, markdownSpans(text));
}

/** The lines of a text that still cite a spec section, and whether each is in a comment. */
function leftoversOf(rel, text) {
  const blocks = rel.endsWith('.md') ? [[0, text.length]] : commentBlocks(rel, text);
  const out = [];
  let offset = 0;
  text.split('\n').forEach((line, i) => {
    if (LEFTOVER.test(line)) {
      const at = offset + line.search(LEFTOVER);
      const inComment = blocks.some(([start, end]) => at >= start && at < end);
      out.push({ where: `${rel}:${i + 1}: ${line.trim()}`, inComment });
    }
    offset += line.length + 1;
  });
  return out;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of ANCHORS that no heading of docs/product provides. */
function missingAnchors(root) {
  const missing = [];
  for (const sections of Object.values(ANCHORS)) {
    for (const target of Object.values(sections)) {
      const [file, anchor] = target.split('#');
      let text = '';
      try {
        text = readFileSync(join(root, 'docs', 'product', file), 'utf8');
      } catch {
        missing.push(`${target} (no such file)`);
        continue;
      }
      const anchors = [...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => slug(m[1]));
      if (!anchors.includes(anchor)) missing.push(target);
    }
  }
  return missing;
}

/** Formats the files Prettier has a parser for (not .sql, .sh, .proto); returns how many changed. */
async function format(paths) {
  const prettier = await import('prettier');
  let formatted = 0;
  for (const path of paths) {
    const info = await prettier.getFileInfo(path);
    if (!info.inferredParser || info.ignored) continue;
    const text = readFileSync(path, 'utf8');
    const options = (await prettier.resolveConfig(path)) ?? {};
    const next = await prettier.format(text, { ...options, filepath: path });
    if (next !== text) {
      writeFileSync(path, next);
      formatted += 1;
    }
  }
  return formatted;
}

function* files(root, dir = root) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const rel = relative(root, path).split(sep).join('/');
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) yield* files(root, path);
    } else if (
      entry.isFile() &&
      EXTENSIONS.test(entry.name) &&
      !SKIP_FILES.has(rel) &&
      !SKIP_PREFIXES.some((prefix) => rel.startsWith(prefix))
    ) {
      yield { path, rel };
    }
  }
}

async function main(argv) {
  const check = argv.includes('--check');
  const rootAt = argv.indexOf('--root');
  const root = resolve(rootAt >= 0 ? argv[rootAt + 1] : join(import.meta.dirname, '..'));
  const missing = missingAnchors(root);
  if (missing.length > 0) {
    console.log(`docs/product lacks the heading of: ${missing.join(', ')}`);
    return 1;
  }
  let citations = 0;
  let changed = 0;
  const changedFiles = [];
  const leftovers = [];
  for (const { path, rel } of files(root)) {
    let text = readFileSync(path, 'utf8');
    if (!/spec\s*0[12]/i.test(text)) continue;
    if (!check) {
      const result = rewriteFile(root, rel, text);
      if (result.count > 0 && result.text !== text) {
        writeFileSync(path, result.text);
        citations += result.count;
        changed += 1;
        changedFiles.push(path);
        text = result.text;
      }
    }
    leftovers.push(...leftoversOf(rel, text));
  }
  const inComments = leftovers.filter((l) => l.inComment).map((l) => l.where);
  const elsewhere = leftovers.filter((l) => !l.inComment).map((l) => l.where);
  if (!check) {
    console.log(`Rewrote ${citations} citation(s) in ${changed} file(s).`);
    if (!argv.includes('--no-format') && changedFiles.length > 0) {
      const formatted = await format(changedFiles);
      console.log(`Formatted ${formatted} of them with Prettier.`);
    }
  }
  if (elsewhere.length > 0) {
    console.log(
      `Outside comments (string literals, test names: not rewritten):\n${elsewhere.join('\n')}`,
    );
  }
  if (inComments.length > 0) {
    console.log(`Comments that still cite spec 01 or spec 02:\n${inComments.join('\n')}`);
    return check ? 1 : 0;
  }
  console.log('No comment cites spec 01 or spec 02.');
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
