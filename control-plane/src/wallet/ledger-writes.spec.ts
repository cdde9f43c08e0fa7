import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(__dirname, '..');
const TEST_FILE = /\.(spec|db-spec|e2e-spec)\.ts$/;

/** Every source file of the control plane (tests aside, which set up ledgers by hand). */
function sourceFiles(dir: string = SRC, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(full, out);
    else if (/\.(ts|sql)$/.test(entry.name) && !TEST_FILE.test(entry.name)) out.push(full);
  }
  return out;
}

function filesMatching(pattern: RegExp): string[] {
  return sourceFiles()
    .filter((file) => pattern.test(readFileSync(file, 'utf8')))
    .map((file) => path.relative(SRC, file))
    .sort();
}

describe('the ledger has one writer', () => {
  it('should insert ledger transactions and entries only in ledger_post', () => {
    expect(filesMatching(/INSERT\s+INTO\s+"?ledger_entries\b/i)).toEqual([
      'wallet/sql/ledger_post.sql',
    ]);
    expect(filesMatching(/INSERT\s+INTO\s+"?ledger_transactions\b/i)).toEqual([
      'wallet/sql/ledger_post.sql',
    ]);
  });

  it('should move wallet balances only in the entries trigger', () => {
    expect(filesMatching(/UPDATE\s+"?ledger_accounts\b/i)).toEqual([
      'wallet/sql/ledger_apply_entry.sql',
    ]);
  });

  it('should be called by both paths that write money: LedgerService and the purchase', () => {
    // And the reward pool's genesis, minted once by its migration.
    expect(filesMatching(/\b(SELECT|PERFORM)\s+ledger_post\(/)).toEqual([
      'database/migrations/1764000002400-economy-ledger.ts',
      'subscriptions/sql/subscription_purchase.sql',
      'wallet/wallet.repository.ts',
    ]);
  });

  it('should pay share rewards from the pool only in the share rewards job', () => {
    // A new writer of social_reward movements must be added here on purpose: each one is a way
    // for SSL to leave the reward pool.
    expect(filesMatching(/type:\s*'social_reward'/)).toEqual(['social/share-rewards.service.ts']);
  });
});
