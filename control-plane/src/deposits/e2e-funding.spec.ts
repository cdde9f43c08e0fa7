import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const E2E_DIRS = ['control-plane/test', 'node-agent/test', 'portal/test'];

function files(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files(full, out);
    else if (/\.(ts|mjs)$/.test(entry.name)) out.push(full);
  }
  return out;
}

/**
 * End-to-end and browser suites fund accounts through real deposits on the local
 * chain (`depositThroughChain`); the SQL helper `depositSsl` is for unit and database specs.
 */
/**
 * Suites that need ledger rows as data, not as a client's journey: the deployment guide's backup
 * and restore (a dump must carry a ledger for the restored copy's checks to mean anything).
 */
const LEDGER_AS_DATA = new Set(['control-plane/test/e2e/deploy-doc.e2e-spec.ts']);

describe('end-to-end suites are funded through the chain', () => {
  it('should not use the SQL deposit helper in any end-to-end or browser suite or its support', () => {
    const users = E2E_DIRS.flatMap((dir) => files(path.join(ROOT, dir)))
      .filter((file) => !file.endsWith(path.join('test', 'support', 'ledger.ts')))
      .filter((file) => /\bdepositSsl\b/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(ROOT, file))
      .filter((file) => !LEDGER_AS_DATA.has(file))
      .sort();
    expect(users).toEqual([]);
  });
});
