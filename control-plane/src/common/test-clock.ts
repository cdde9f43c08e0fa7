import { readFileSync, statSync } from 'node:fs';
import type { Clock } from './clock';

/**
 * The clock of a control plane started as a child process by a test (TEST_CLOCK_FILE, refused
 * unless NODE_ENV=test): the system time plus the whole number of milliseconds the file holds.
 * Tests that run the application in their own process inject a clock object instead; a browser
 * suite cannot, so it moves this one by rewriting the file (atomically: write, then rename).
 *
 * The file is read on every `now()`, so a test that has written it knows the next request sees
 * the new time. A file that cannot be read, or holds anything but an integer, throws: a test
 * clock that silently fell back to the system time would make a suite pass for the wrong reason.
 */
export interface TestClock extends Clock {
  /** Calls `onMove` after each change of the file (polled); returns the unsubscribe. */
  watch(onMove: () => void): () => void;
}

/** How often the file's status is polled for a change. */
const POLL_MS = 100;

export function readClockOffsetMs(path: string): number {
  const text = readFileSync(path, 'utf8').trim();
  if (!/^-?\d{1,15}$/.test(text)) {
    throw new Error(`TEST_CLOCK_FILE ${path}: expected a whole number of milliseconds`);
  }
  return Number(text);
}

export function fileClock(path: string): TestClock {
  // Read once now: a missing or malformed file stops the start, not a later request.
  readClockOffsetMs(path);
  return {
    now: () => new Date(Date.now() + readClockOffsetMs(path)),
    watch(onMove) {
      // Polled here rather than with fs.watchFile: watchFile takes its first stat asynchronously,
      // so a move made right after watch() returned could become its baseline and never be seen.
      // This baseline is taken now, so every change after watch() returns is reported.
      let last = fileIdentity(path);
      const timer = setInterval(() => {
        const current = fileIdentity(path);
        if (current !== last) {
          last = current;
          onMove();
        }
      }, POLL_MS);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}

/** What changes when the file is rewritten or renamed over: its inode and modification time. */
function fileIdentity(path: string): string {
  try {
    const stat = statSync(path);
    return `${stat.ino}:${stat.mtimeMs}`;
  } catch {
    return 'missing';
  }
}
