#!/usr/bin/env node
/**
 * Rewrites the citations of the two product specifications that are not in this repository
 * ("spec 01 §9", "spec 02 sections 3-4", "spec 01 §4, §5") into the anchors of docs/product/,
 * which state the same rules in the repository's own words (docs/product/README.md).
 *
 *   node scripts/rewrite-spec-citations.mjs           rewrite every file, print what changed
 *   node scripts/rewrite-spec-citations.mjs --check   change nothing; exit 1 if a citation remains
 *   node scripts/rewrite-spec-citations.mjs --root <dir>   work on another checkout
 *
 * Idempotent: a rewritten citation no longer matches, so a second run changes nothing.
 *
 * In `.sql` files only the text before the function body (the first dollar quote) is rewritten:
 * a body is what the database stores, so changing it needs a migration (docs/development.md,
 * "Changing a SQL function"); a citation inside a body is reported by --check instead.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

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
const SKIP_DIRS = new Set(['node_modules', 'dist', 'dist-bundle', '.git', '.data', 'coverage']);
/** The product docs themselves, and this script (its own table and examples). */
const SKIP_FILES = new Set(['scripts/rewrite-spec-citations.mjs']);
const SKIP_PREFIXES = ['docs/product/'];

/** Anything that still names a spec section: what --check looks for. */
const LEFTOVER = /\bspec\s*0[12]\b\s*(?:§|sections?\b)/i;

/**
 * "spec 01 §4", then any continuation of the same spec: ", §5", " and §7", " / §9", "§3-4".
 * Also "spec 02 section 4" and "spec 02 sections 3-4".
 */
const CITATION =
  /\bspec\s*(0[12])\s*(?:§\s*|sections?\s+)(\d)(?:\s*[-–]\s*(\d))?((?:\s*(?:,|\/|&|\band\b|\bor\b)\s*§\s*\d(?:\s*[-–]\s*\d)?)*)/gi;

function anchorFor(spec, section) {
  const anchor = ANCHORS[spec]?.[section];
  if (!anchor) throw new Error(`spec ${spec} §${section} has no anchor in docs/product`);
  return `docs/product/${anchor}`;
}

function range(from, to) {
  const out = [];
  for (let n = Number(from); n <= Number(to ?? from); n++) out.push(n);
  return out;
}

/** Rewrites the citations of one text; returns the new text and how many citations it had. */
export function rewriteText(text) {
  let count = 0;
  const next = text.replace(CITATION, (_match, spec, first, last, more) => {
    const sections = range(first, last);
    for (const [, from, to] of (more ?? '').matchAll(/§\s*(\d)(?:\s*[-–]\s*(\d))?/g)) {
      sections.push(...range(from, to));
    }
    const anchors = [...new Set(sections.map((section) => anchorFor(spec, section)))];
    count += sections.length;
    return anchors.join(', ');
  });
  return { text: next, count };
}

/** A .sql file: only the text before the first dollar quote (the function body) is rewritten. */
function rewriteFile(path, text) {
  if (!path.endsWith('.sql')) return rewriteText(text);
  const body = text.search(/\$[A-Za-z_]*\$/);
  if (body < 0) return rewriteText(text);
  const head = rewriteText(text.slice(0, body));
  return { text: head.text + text.slice(body), count: head.count };
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

function main(argv) {
  const check = argv.includes('--check');
  const rootAt = argv.indexOf('--root');
  const root = resolve(rootAt >= 0 ? argv[rootAt + 1] : join(import.meta.dirname, '..'));
  let citations = 0;
  let changed = 0;
  const leftovers = [];
  for (const { path, rel } of files(root)) {
    const text = readFileSync(path, 'utf8');
    if (!/spec\s*0[12]/i.test(text)) continue;
    if (check) {
      text.split('\n').forEach((line, i) => {
        if (LEFTOVER.test(line)) leftovers.push(`${rel}:${i + 1}: ${line.trim()}`);
      });
      continue;
    }
    const result = rewriteFile(path, text);
    if (result.count > 0 && result.text !== text) {
      writeFileSync(path, result.text);
      citations += result.count;
      changed += 1;
    }
    result.text.split('\n').forEach((line, i) => {
      if (LEFTOVER.test(line)) leftovers.push(`${rel}:${i + 1}: ${line.trim()}`);
    });
  }
  if (check) {
    if (leftovers.length > 0) {
      console.log(leftovers.join('\n'));
      console.log(`${leftovers.length} line(s) still cite spec 01 or spec 02 (run without --check)`);
      return 1;
    }
    console.log('No spec 01 / spec 02 citations left.');
    return 0;
  }
  console.log(`Rewrote ${citations} citation(s) in ${changed} file(s).`);
  if (leftovers.length > 0) {
    console.log(`Left as they are (rewrite by hand):\n${leftovers.join('\n')}`);
  }
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('rewrite-spec-citations.mjs')) {
  process.exitCode = main(process.argv.slice(2));
}
