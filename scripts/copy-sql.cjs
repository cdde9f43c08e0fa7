#!/usr/bin/env node
// Copies a package's SQL function sources (src/<domain>/sql/*.sql) into dist/ beside the compiled
// code, which reads them at run time (control-plane/src/database/sql-functions.ts). tsc copies
// only what it compiles. Run in the package's folder, after tsc; stale copies are removed first.
'use strict';
const { cpSync, existsSync, mkdirSync, readdirSync, rmSync } = require('node:fs');
const path = require('node:path');

const src = path.resolve('src');
const dist = path.resolve('dist');
for (const domain of readdirSync(dist, { withFileTypes: true })) {
  if (domain.isDirectory())
    rmSync(path.join(dist, domain.name, 'sql'), { recursive: true, force: true });
}
for (const domain of readdirSync(src, { withFileTypes: true })) {
  const from = path.join(src, domain.name, 'sql');
  if (!domain.isDirectory() || !existsSync(from)) continue;
  const to = path.join(dist, domain.name, 'sql');
  mkdirSync(to, { recursive: true });
  for (const file of readdirSync(from)) {
    if (file.endsWith('.sql')) cpSync(path.join(from, file), path.join(to, file));
  }
}
