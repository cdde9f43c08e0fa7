import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Chain } from './chain';
import type { SavedChain } from './chain-state';
import { makePrivateDir } from './private-dir';

/** What `stateFile` keeps: the chain and the demo wallet's key (its address stays the same). */
export interface SavedState {
  chain: SavedChain;
  demoWalletSecretKey: number[];
}

export function readState(path: string): SavedState | null {
  if (!existsSync(path)) return null;
  let state: Partial<SavedState> | null;
  try {
    state = JSON.parse(readFileSync(path, 'utf8')) as Partial<SavedState> | null;
  } catch {
    throw new Error(`${path}: not a devchain state file (delete it to start a new chain)`);
  }
  if (state?.chain?.version !== 1 || !Array.isArray(state.demoWalletSecretKey))
    throw new Error(`${path}: not a devchain state file (delete it to start a new chain)`);
  return state as SavedState;
}

function writeState(path: string, state: SavedState): void {
  makePrivateDir(dirname(path));
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, JSON.stringify(state), { mode: 0o600 });
  // A crash mid-write leaves the previous state, never half a file.
  renameSync(partial, path);
}

/** Saves the state a second after transactions land, and at stop. */
export class StateSaver {
  private dirty = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly path: string,
    private readonly snapshot: () => SavedState,
    chain: Chain,
  ) {
    chain.on('transaction', () => {
      this.dirty = true;
    });
    this.timer = setInterval(() => {
      if (this.dirty) this.flush();
    }, 1000);
  }

  flush(): void {
    this.dirty = false;
    writeState(this.path, this.snapshot());
  }

  stop(): void {
    clearInterval(this.timer);
    this.flush();
  }
}
