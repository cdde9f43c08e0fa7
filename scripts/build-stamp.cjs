#!/usr/bin/env node
// What a package's dist/ was built from. The end-to-end suites run on the built dist/ (the code
// `npm start` runs), so a dist/ older than its sources must never be tested silently.
//
//   node ../scripts/build-stamp.cjs          (a package's build, last step, in its folder)
//     writes dist/.build-inputs.json: the SHA-256 of every file the build reads.
//   require('.../build-stamp.cjs').staleBuilds(['proto', 'control-plane'])
//     what differs between each package's sources and the stamp of its dist/ (the suites'
//     global setup refuses to start then).
//
// Content hashes rather than modification times: an nx cache restore or a checkout of older
// sources leaves times that say nothing about what dist/ was built from.
'use strict';
const { createHash } = require('node:crypto');
const { existsSync, readdirSync, readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const STAMP = path.join('dist', '.build-inputs.json');
/** Read by every package's build. */
const SHARED_INPUTS = ['tsconfig.base.json'];
/** Per package: its own files and folders the build reads (tests excluded, as in nx.json). */
const INPUTS = {
  proto: { files: ['package.json', 'tsconfig.json', 'tsconfig.build.json'], dirs: ['src'] },
  devchain: { files: ['package.json', 'tsconfig.json', 'tsconfig.build.json'], dirs: ['src'] },
  'control-plane': {
    files: ['package.json', 'tsconfig.json', 'tsconfig.build.json'],
    dirs: ['src'],
  },
  'node-agent': { files: ['package.json', 'tsconfig.json', 'tsconfig.build.json'], dirs: ['src'] },
  portal: {
    files: ['package.json', 'tsconfig.json', 'vite.config.ts', 'index.html'],
    dirs: ['src', 'public'],
  },
};
const TEST_FILE = /\.(spec|db-spec|e2e-spec)\.tsx?$/;

function listFiles(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) listFiles(full, out);
    else if (entry.isFile() && !TEST_FILE.test(entry.name)) out.push(full);
  }
  return out;
}

/** { 'relative/path': sha256 } of the build's inputs for one package. */
function inputHashes(pkg) {
  const inputs = INPUTS[pkg];
  if (!inputs) throw new Error(`build-stamp: unknown package ${pkg}`);
  const pkgDir = path.join(ROOT, pkg);
  const files = [
    ...SHARED_INPUTS.map((file) => path.join(ROOT, file)),
    ...inputs.files.map((file) => path.join(pkgDir, file)),
    ...inputs.dirs.flatMap((dir) => listFiles(path.join(pkgDir, dir))),
  ].filter((file) => existsSync(file));
  const hashes = {};
  for (const file of files.sort()) {
    hashes[path.relative(ROOT, file)] = createHash('sha256')
      .update(readFileSync(file))
      .digest('hex');
  }
  return hashes;
}

function writeStamp(pkg) {
  const file = path.join(ROOT, pkg, STAMP);
  writeFileSync(file, `${JSON.stringify({ inputs: inputHashes(pkg) }, null, 1)}\n`);
}

/**
 * For each package whose dist/ does not match its sources: which files were added, changed or
 * removed since it was built (or that it was never built). Empty when every dist/ is current.
 */
function staleBuilds(packages) {
  const stale = [];
  for (const pkg of packages) {
    const file = path.join(ROOT, pkg, STAMP);
    if (!existsSync(file)) {
      stale.push({ pkg, changed: [`${pkg}/${STAMP} missing: never built (or built without it)`] });
      continue;
    }
    const built = JSON.parse(readFileSync(file, 'utf8')).inputs;
    const now = inputHashes(pkg);
    const changed = [
      ...Object.keys(now).filter((f) => built[f] !== now[f]),
      ...Object.keys(built)
        .filter((f) => !(f in now))
        .map((f) => `${f} (removed)`),
    ];
    if (changed.length > 0) stale.push({ pkg, changed });
  }
  return stale;
}

/** Throws a clear error when any of the packages' dist/ is not built from today's sources. */
function assertBuilt(packages) {
  const stale = staleBuilds(packages);
  if (stale.length === 0) return;
  const lines = stale.map(({ pkg, changed }) => {
    const shown = changed.slice(0, 5).join(', ');
    const more = changed.length > 5 ? ` and ${changed.length - 5} more` : '';
    return `  ${pkg}/dist: ${shown}${more}`;
  });
  throw new Error(
    [
      'The end-to-end suites run on the built dist/ (what `npm start` runs), and it is older than the sources:',
      ...lines,
      'Build first: `npm run build` at the repository root (`npm test` builds by itself).',
    ].join('\n'),
  );
}

module.exports = { inputHashes, staleBuilds, assertBuilt, writeStamp, INPUTS };

if (require.main === module) {
  const pkg = path.basename(process.cwd());
  writeStamp(pkg);
}
