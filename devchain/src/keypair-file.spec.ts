import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateKeypair } from './keypair-file';

describe('loadOrCreateKeypair', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'devchain-key-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('should create an owner-only key file and load the same key again when it exists', () => {
    const path = join(dir, 'nested', 'treasury.json');
    const created = loadOrCreateKeypair(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toHaveLength(64);
    expect(loadOrCreateKeypair(path).publicKey.toBase58()).toBe(created.publicKey.toBase58());
  });

  it.each([['not json'], ['[1,2,3]'], [JSON.stringify(new Array(64).fill(300))]])(
    'should refuse a file that is not a keypair: %s',
    (content) => {
      const path = join(dir, 'bad.json');
      writeFileSync(path, content);
      expect(() => loadOrCreateKeypair(path)).toThrow(/not a Solana keypair file/);
    },
  );
});
