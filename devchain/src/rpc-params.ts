import { getBase58Encoder } from '@solana/kit';
import { PublicKey } from '@solana/web3.js';
import type { Chain, Commitment } from './chain';

/** A JSON-RPC error as real nodes answer it (codes from agave's rpc custom errors). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const invalidParams = (message: string): RpcError => new RpcError(-32602, message);

export type Config = Record<string, unknown>;

/** The optional configuration object at a position of the params array. */
export function configAt(params: unknown[], index: number): Config {
  const value = params[index];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalidParams('Invalid params: expected a configuration object');
  return value as Config;
}

const COMMITMENTS: readonly string[] = ['processed', 'confirmed', 'finalized'];

/** The commitment of a request; real nodes default to finalized. */
export function commitmentOf(config: Config, key = 'commitment'): Commitment {
  const value = config[key] ?? 'finalized';
  // Deprecated aliases web3.js 0.x and old wallets still send.
  if (value === 'recent' || value === 'single' || value === 'singleGossip') return 'confirmed';
  if (value === 'max' || value === 'root') return 'finalized';
  if (typeof value !== 'string' || !COMMITMENTS.includes(value))
    throw invalidParams(`Invalid params: unknown commitment ${JSON.stringify(value)}`);
  return value as Commitment;
}

/** getTransaction and getSignaturesForAddress refuse `processed`, as real nodes do. */
export function atLeastConfirmed(config: Config): Commitment {
  const commitment = commitmentOf(config);
  if (commitment === 'processed')
    throw invalidParams('Method does not support commitment below `confirmed`');
  return commitment;
}

/** `context` of a response, after checking the request's minContextSlot. */
export function contextOf(chain: Chain, commitment: Commitment, config: Config = {}) {
  const slot = chain.slotAt(commitment);
  const min = config.minContextSlot;
  if (typeof min === 'number' && slot < min)
    throw new RpcError(-32016, 'Minimum context slot has not been reached', { contextSlot: slot });
  return { apiVersion: API_VERSION, slot };
}

/** The agave version devchain's wire format follows. */
export const API_VERSION = '2.2.0';

export function addressAt(params: unknown[], index: number): PublicKey {
  const value = params[index];
  if (typeof value !== 'string') throw invalidParams('Invalid params: expected an address');
  try {
    const bytes = getBase58Encoder().encode(value);
    if (bytes.length !== 32) throw new Error('wrong size');
    return new PublicKey(value);
  } catch {
    throw invalidParams('Invalid param: Invalid');
  }
}

export function isSignature(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 88) return false;
  try {
    return getBase58Encoder().encode(value).length === 64;
  } catch {
    return false;
  }
}

export function signatureAt(params: unknown[], index: number): string {
  const value = params[index];
  if (!isSignature(value)) throw invalidParams('Invalid param: Invalid');
  return value;
}

/** A wire transaction or message in base58 (the RPC's default) or base64. */
export function bytesOf(value: unknown, encoding: unknown): Uint8Array {
  if (typeof value !== 'string') throw invalidParams('Invalid params: expected an encoded string');
  try {
    if (encoding === 'base64') {
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value)) throw new Error('not base64');
      return new Uint8Array(Buffer.from(value, 'base64'));
    }
    if (encoding === undefined || encoding === 'base58')
      return new Uint8Array(getBase58Encoder().encode(value));
  } catch {
    throw invalidParams(`invalid ${String(encoding ?? 'base58')} encoding`);
  }
  throw invalidParams(
    `unsupported encoding: ${String(encoding)}. Supported encodings: base58, base64`,
  );
}
