/**
 * Where the comments of a source file are, so that a script can read or rewrite comments and
 * nothing else: not string literals, not test names, not JSX text a user sees.
 *
 * TypeScript and JavaScript are parsed with the TypeScript compiler (JSX text and template
 * literals are not comments, whatever they contain). The other kinds are lexed here: SQL (`--`,
 * block comments; quoted strings and dollar-quoted bodies skipped), shell-like files (`#` at the
 * start of a word, outside quotes), CSS and proto (block and, for proto, line comments; strings
 * skipped).
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const ts = require('typescript');

/** The files whose comments these scripts read: every kind the repository has sources of. */
export const SOURCE_FILE =
  /(\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|sql|sh|css|proto|ya?ml|conf)$|(^|\/)(Dockerfile[^/]*|Caddyfile[^/]*)$)/;

/** Folders never read: installed, built or generated output. */
export const SKIP_DIRS = new Set([
  'node_modules',
  'dist',
  'dist-bundle',
  '.git',
  '.data',
  '.nx',
  'coverage',
  'gen',
]);

const TS_KIND = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

function tsRanges(path, text) {
  const kind = /\.(tsx|jsx)$/.test(path)
    ? ts.ScriptKind.TSX
    : /\.(js|mjs|cjs)$/.test(path)
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, kind);
  const seen = new Set();
  const ranges = [];
  const add = (list) => {
    for (const range of list ?? []) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      ranges.push([range.pos, range.end]);
    }
  };
  const visit = (node) => {
    // JSX text is no trivia: reading comments from its start would take "// x" in it for one.
    if (node.kind !== ts.SyntaxKind.JsxText) add(ts.getLeadingCommentRanges(text, node.pos));
    if (node.kind >= ts.SyntaxKind.FirstToken && node.kind <= ts.SyntaxKind.LastToken) {
      add(ts.getTrailingCommentRanges(text, node.end));
    }
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return ranges.sort((a, b) => a[0] - b[0]);
}

function sqlRanges(text) {
  const ranges = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      ranges.push([i, stop]);
      i = stop;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      ranges.push([i, stop]);
      i = stop;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < text.length && !(text[j] === c && text[j + 1] !== c)) j += text[j] === c ? 2 : 1;
      i = j + 1;
    } else if (c === '$') {
      const tag = /^\$[A-Za-z_]*\$/.exec(text.slice(i, i + 64));
      if (!tag) {
        i += 1;
        continue;
      }
      const end = text.indexOf(tag[0], i + tag[0].length);
      i = end < 0 ? text.length : end + tag[0].length;
    } else {
      i += 1;
    }
  }
  return ranges;
}

/** `#` comments: at the start of a line or after a blank, outside quotes (shell, YAML, Docker, Caddy). */
function hashRanges(text) {
  const ranges = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    let quote = null;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (quote) {
        if (c === '\\' && quote === '"') i += 1;
        else if (c === quote) quote = null;
      } else if (c === "'" || c === '"') {
        // An apostrophe inside a word (YAML plain text: it's) opens nothing.
        if (c === "'" && i > 0 && /\w/.test(line[i - 1])) continue;
        quote = c;
      } else if (c === '\\') {
        i += 1;
      } else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) {
        ranges.push([offset + i, offset + line.length]);
        break;
      }
    }
    offset += line.length + 1;
  }
  return ranges;
}

/** Block comments (CSS, proto), and `//` line comments where `lineComments`; strings skipped. */
function cLikeRanges(text, lineComments) {
  const ranges = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      ranges.push([i, stop]);
      i = stop;
    } else if (lineComments && c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      ranges.push([i, stop]);
      i = stop;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      i = j + 1;
    } else {
      i += 1;
    }
  }
  return ranges;
}

/** The [start, end) offsets of every comment of a file, in order. */
export function commentRanges(path, text) {
  if (TS_KIND.test(path)) return tsRanges(path, text);
  if (path.endsWith('.sql')) return sqlRanges(text);
  if (path.endsWith('.css')) return cLikeRanges(text, false);
  if (path.endsWith('.proto')) return cLikeRanges(text, true);
  return hashRanges(text);
}

/**
 * The comments grouped into blocks: consecutive line comments (only blank space between them)
 * are one block, so that a sentence running over several `//` lines is read whole.
 */
export function commentBlocks(path, text) {
  const blocks = [];
  for (const [start, end] of commentRanges(path, text)) {
    const last = blocks.at(-1);
    if (
      last &&
      /^\s*$/.test(text.slice(last[1], start)) &&
      !/\n\s*\n/.test(text.slice(last[1], start))
    ) {
      last[1] = end;
    } else {
      blocks.push([start, end]);
    }
  }
  return blocks;
}

/** Line number (1-based) of an offset. */
export function lineAt(text, offset) {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line += 1;
  return line;
}
