#!/usr/bin/env node
// The browser suite: jest with the e2e config. Fails clearly when Chromium is missing.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(
    `Chromium not found at ${chromium}: apt-get install -y chromium (never download a browser)`,
  );
  process.exit(1);
}
const result = spawnSync('npx', ['jest', '-c', 'jest.e2e.config.cjs', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: process.env,
});
process.exit(result.status ?? 1);
