#!/usr/bin/env node
// `npm start`: runs the built control plane (which serves the portal) with the repository's
// defaults: embedded PostgreSQL under .data/ unless DATABASE_URL is set, mail to .data/outbox/
// unless SMTP_URL is set. Signals are passed on so the database shuts down cleanly.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'control-plane', 'dist', 'main.js');
if (!existsSync(entry)) {
  console.error('The control plane is not built: run `npm run build` (npm start does it for you).');
  process.exit(1);
}

const child = spawn(process.execPath, [entry], {
  stdio: 'inherit',
  env: { NODE_ENV: 'development', ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
