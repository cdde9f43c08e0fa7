import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { makePrivateDir } from './private-dir';

/**
 * A keypair in the Solana CLI's file format (a JSON array of the 64 secret-key bytes, as
 * `solana-keygen new -o` writes), created on first use with owner-only permissions.
 */
export function loadOrCreateKeypair(path: string): Keypair {
  if (existsSync(path)) {
    let bytes: unknown;
    try {
      bytes = JSON.parse(readFileSync(path, 'utf8'));
    } catch {
      throw new Error(`${path}: not a Solana keypair file (JSON array of 64 bytes)`);
    }
    if (
      !Array.isArray(bytes) ||
      bytes.length !== 64 ||
      !bytes.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)
    )
      throw new Error(`${path}: not a Solana keypair file (JSON array of 64 bytes)`);
    try {
      return Keypair.fromSecretKey(Uint8Array.from(bytes as number[]));
    } catch {
      throw new Error(`${path}: the secret key does not match its public key`);
    }
  }
  const keypair = Keypair.generate();
  makePrivateDir(dirname(path));
  writeFileSync(path, `${JSON.stringify(Array.from(keypair.secretKey))}\n`, { mode: 0o600 });
  return keypair;
}
