#!/usr/bin/env node
// `npm run bench [name]`: runs bench/<name>/index.mjs (all of them without a name), one after another.
import { spawnSync } from 'node:child_process';
import { readdirSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv[2];
const names = readdirSync(here, { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'lib' && existsSync(join(here, d.name, 'index.mjs')))
  .map((d) => d.name)
  .filter((name) => !wanted || name === wanted);
if (names.length === 0) {
  console.error(wanted ? `No benchmark named ${wanted}` : 'No benchmarks found');
  process.exit(2);
}
let failed = false;
for (const name of names) {
  console.log(`\n=== bench/${name}`);
  const result = spawnSync(process.execPath, [join(here, name, 'index.mjs')], { stdio: 'inherit' });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
