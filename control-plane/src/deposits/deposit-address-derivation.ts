import { createHmac } from 'node:crypto';
import { Keypair } from '@solana/web3.js';

/**
 * docs/deposits.md#per-account-addresses: one Solana deposit address per account wallet, derived
 * from SOLANA_DEPOSIT_SEED by SLIP-0010 (ed25519, hardened only) at m/44'/501'/<index>'/0', the
 * path Solana wallets use, so the addresses can be re-derived and audited from the seed and the
 * stored index. Pure functions; the seed never leaves this process and is never stored.
 */

const HARDENED = 0x8000_0000;
/** BIP-44 purpose and Solana's registered coin type. */
const PURPOSE = 44;
const SOLANA_COIN = 501;
/** The largest index a hardened path can carry (2^31 - 1). */
export const MAX_DERIVATION_INDEX = HARDENED - 1;

export interface Slip10Node {
  key: Buffer;
  chainCode: Buffer;
}

/** SLIP-0010 master node of the ed25519 curve. */
export function slip10Master(seed: Uint8Array): Slip10Node {
  const digest = createHmac('sha512', 'ed25519 seed').update(seed).digest();
  return { key: digest.subarray(0, 32), chainCode: digest.subarray(32) };
}

/** One hardened child (ed25519 has no other kind): `index` without the hardened bit. */
export function slip10Child(parent: Slip10Node, index: number): Slip10Node {
  if (!Number.isInteger(index) || index < 0 || index > MAX_DERIVATION_INDEX) {
    throw new RangeError(`derivation index out of range: ${index}`);
  }
  const data = Buffer.alloc(37);
  parent.key.copy(data, 1);
  data.writeUInt32BE(index + HARDENED, 33);
  const digest = createHmac('sha512', parent.chainCode).update(data).digest();
  return { key: digest.subarray(0, 32), chainCode: digest.subarray(32) };
}

/** The node at a path of hardened indexes (each without the hardened bit). */
export function slip10Derive(seed: Uint8Array, path: readonly number[]): Slip10Node {
  return path.reduce(slip10Child, slip10Master(seed));
}

/** The path of an account's deposit address: m/44'/501'/<index>'/0'. */
export function depositAddressPath(index: number): number[] {
  return [PURPOSE, SOLANA_COIN, index, 0];
}

/** The keypair of deposit index `index` (the sweep signs with it; never stored). */
export function depositKeypair(seed: Uint8Array, index: number): Keypair {
  return Keypair.fromSeed(slip10Derive(seed, depositAddressPath(index)).key);
}

/** The base58 address of deposit index `index`. */
export function depositAddress(seed: Uint8Array, index: number): string {
  return depositKeypair(seed, index).publicKey.toBase58();
}

/** SOLANA_DEPOSIT_SEED's text: 32 to 64 bytes as hex (e.g. a BIP-39 seed's 128 hex digits). */
export function parseDepositSeed(text: string): Buffer | null {
  const hex = text.trim();
  if (!/^([0-9a-fA-F]{2}){32,64}$/.test(hex)) return null;
  return Buffer.from(hex, 'hex');
}
