import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';

// The CLI runs from dist/ (what `npm start` and users run); nx builds it before the tests.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { assertBuilt } = require('../../scripts/build-stamp.cjs') as {
  assertBuilt: (packages: string[]) => void;
};
const MAIN = join(__dirname, '..', 'dist', 'main.js');

describe('scn-devchain CLI', () => {
  beforeAll(() => assertBuilt(['devchain']));

  it('should exit 2 with a clear message when a flag is bad', () => {
    const result = spawnSync(process.execPath, [MAIN, '--slot-ms', 'fast'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--slot-ms must be an integer from 10 to 60000 (got "fast")');
  });

  it('should serve JSON-RPC on loopback and stop on SIGTERM when started', async () => {
    const child = spawn(process.execPath, [MAIN, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += String(chunk);
        const match = /JSON-RPC (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (match?.[1]) resolve(match[1]);
      });
      child.once('exit', () => reject(new Error(`exited early: ${out}`)));
    });
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getHealth' }),
    });
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 1, result: 'ok' });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
