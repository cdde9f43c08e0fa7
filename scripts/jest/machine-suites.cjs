#!/usr/bin/env node
// The test files that use something of the machine beyond Node.js and npm (v2ray, pebble, caddy,
// docker-compose, network namespaces and root, shellcheck, zip, Debian's reference protos),
// directly or through the test support they import. `.ci/newcomer` runs exactly these without those parts, as a user who is
// not root, so a suite that would fail on a newcomer's machine instead of skipping fails CI.
//
//   node scripts/jest/machine-suites.cjs <package>   one spec path per line, relative to it
'use strict';
const fs = require('node:fs');
const path = require('node:path');

/** What a test file names when it uses the machine. */
const MACHINE =
  /\/usr\/bin\/v2ray|\/usr\/bin\/pebble|\/usr\/bin\/caddy|'docker-compose'|V2RAY_PATH|\/usr\/share\/gocode|'shellcheck'|'zip'|'setpriv'|'ip',\s*\[|getuid\(|describeNeeding|itNeeding/;
const SPEC = /\.(spec|db-spec|e2e-spec)\.ts$/;
/** Test code: specs and the support they import (sources are what every suite runs anyway). */
const isTestFile = (file) => SPEC.test(file) || file.split(path.sep).includes('test');

function walk(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('dist')) return [];
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

function resolveImport(from, specifier) {
  const base = path.resolve(path.dirname(from), specifier);
  return [base, `${base}.ts`, path.join(base, 'index.ts')].find(
    (candidate) => candidate.endsWith('.ts') && fs.existsSync(candidate),
  );
}

/** The relative imports of a file (static, dynamic and require), resolved to .ts files. */
function importsOf(file) {
  const text = fs.readFileSync(file, 'utf8');
  const found = [
    ...text.matchAll(/(?:from\s+|import\(\s*|require\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g),
  ];
  return found.map((match) => resolveImport(file, match[1])).filter(Boolean);
}

function usesMachine(file, seen = new Set()) {
  if (seen.has(file)) return false;
  seen.add(file);
  if (MACHINE.test(fs.readFileSync(file, 'utf8'))) return true;
  return importsOf(file).some((next) => isTestFile(next) && usesMachine(next, seen));
}

function machineSuites(packageDir) {
  return walk(packageDir)
    .filter((file) => SPEC.test(file) && usesMachine(file))
    .map((file) => path.relative(packageDir, file))
    .sort();
}

module.exports = { machineSuites };

if (require.main === module) {
  const pkg = process.argv[2];
  if (!pkg) {
    console.error('usage: machine-suites.cjs <package folder>');
    process.exit(2);
  }
  for (const suite of machineSuites(path.resolve(pkg))) console.log(suite);
}
