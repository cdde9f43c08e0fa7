import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makePrivateDir } from './private-dir';

describe('makePrivateDir', () => {
  it('should make only the last folder private, and the missing ones above it as usual', () => {
    const root = mkdtempSync(join(tmpdir(), 'private-dir-'));
    try {
      const dir = join(root, 'data', 'devchain');
      makePrivateDir(dir);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(root, 'data')).mode & 0o077).not.toBe(0);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
