import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileClock } from './test-clock';

function clockFile(content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'scn-test-clock-')), 'clock');
  writeFileSync(path, content);
  return path;
}

/** As the browser suites move it: a new file renamed over the old one. */
function moveTo(path: string, offsetMs: number): void {
  writeFileSync(`${path}.next`, `${offsetMs}\n`);
  renameSync(`${path}.next`, path);
}

describe('fileClock', () => {
  it('should add the file offset to the system time, read again at every call', () => {
    const path = clockFile('0\n');
    const clock = fileClock(path);
    expect(Math.abs(clock.now().getTime() - Date.now())).toBeLessThan(1000);
    const month = 31 * 86_400_000;
    moveTo(path, month);
    expect(Math.abs(clock.now().getTime() - (Date.now() + month))).toBeLessThan(1000);
    moveTo(path, -month);
    expect(Math.abs(clock.now().getTime() - (Date.now() - month))).toBeLessThan(1000);
  });

  it.each([[''], ['soon'], ['1.5'], ['2026-01-01T00:00:00Z']])(
    'should refuse a file holding %j rather than fall back to the system time',
    (content) => {
      expect(() => fileClock(clockFile(content))).toThrow(
        'expected a whole number of milliseconds',
      );
    },
  );

  it('should refuse a missing file at once', () => {
    expect(() => fileClock(join(tmpdir(), 'scn-no-such-clock', 'clock'))).toThrow('ENOENT');
  });

  it('should call the watcher when the file is moved, until unsubscribed', async () => {
    const path = clockFile('0');
    const clock = fileClock(path);
    let moves = 0;
    const unwatch = clock.watch(() => (moves += 1));
    const until = async (count: number) => {
      const deadline = Date.now() + 5000;
      while (moves < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    };
    moveTo(path, 1000);
    await until(1);
    expect(moves).toBe(1);
    unwatch();
    moveTo(path, 2000);
    await new Promise((r) => setTimeout(r, 400));
    expect(moves).toBe(1);
  });
});
