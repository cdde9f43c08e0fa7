import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Creates `dir` readable by its owner only, and any missing folder above it with the usual
 * permissions: `mkdirSync(dir, { recursive: true, mode: 0o700 })` would make every folder it
 * creates private, DATA_DIR included, where others must reach (the embedded PostgreSQL runs as
 * its own user when started as root).
 */
export function makePrivateDir(dir: string): void {
  mkdirSync(dirname(dir), { recursive: true });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}
