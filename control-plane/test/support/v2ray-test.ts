import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `v2ray -test -config <file>`: its output, or a throw with it when v2ray refuses. */
export function v2rayTest(config: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'scn-v2ray-test-'));
  try {
    const file = join(dir, 'config.json');
    writeFileSync(file, config);
    return execFileSync('/usr/bin/v2ray', ['-test', '-config', file], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 20_000,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
