#!/usr/bin/env node
// `npm run screenshots`: every route at 1280 and 390 px wide into docs/screenshots/.
import { spawnSync } from 'node:child_process';

const result = spawnSync('node', ['test/e2e/run.mjs'], {
  stdio: 'inherit',
  env: { ...process.env, SCN_SCREENSHOTS: '1' },
});
process.exit(result.status ?? 1);
