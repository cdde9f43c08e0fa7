import { createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';

/**
 * REALITY key material for Xray, made with node:crypto, in the encodings Xray uses:
 *
 * - the X25519 key pair: 32-byte raw keys in base64 raw URL encoding, no padding (43 characters),
 *   as `xray x25519` prints them. The private key goes into the server's
 *   `realitySettings.privateKey`; the public key is the client's `publicKey` and the share link's
 *   `pbk`. Like `xray x25519`, the private key is stored clamped (RFC 7748 §5): X25519 clamps
 *   on use anyway, so the public key is the same either way.
 * - short ids: hex strings of even length, 0 to 16 characters (`realitySettings.shortIds`; the
 *   link's `sid` is one of them).
 */

export interface RealityKeyPair {
  /** Server side: `realitySettings.privateKey`. */
  privateKey: string;
  /** Client side: `realitySettings.publicKey`, the link's `pbk`. */
  publicKey: string;
}

/** PKCS #8 DER of an X25519 private key up to its 32 raw bytes (RFC 8410). */
const X25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b656e04220420', 'hex');
const KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const SHORT_ID_PATTERN = /^(?:[0-9a-f]{2}){0,8}$/;

/** Whether a string is a 32-byte key in base64 raw URL encoding (43 characters, no padding). */
export function isRealityKey(key: string): boolean {
  return KEY_PATTERN.test(key) && Buffer.from(key, 'base64url').toString('base64url') === key;
}

/** A raw 32-byte key in Xray's encoding. */
export function encodeRealityKey(raw: Buffer): string {
  if (raw.length !== 32) throw new Error(`an X25519 key is 32 bytes, got ${raw.length}`);
  return raw.toString('base64url');
}

/** The public key (`pbk`) of a REALITY private key, as `xray x25519 -i <private key>` gives it. */
export function realityPublicKey(privateKey: string): string {
  if (!isRealityKey(privateKey)) {
    throw new Error('a REALITY private key is 32 bytes in base64 raw URL encoding (43 characters)');
  }
  const key = createPrivateKey({
    key: Buffer.concat([X25519_PKCS8_PREFIX, Buffer.from(privateKey, 'base64url')]),
    format: 'der',
    type: 'pkcs8',
  });
  const { x } = createPublicKey(key).export({ format: 'jwk' });
  if (typeof x !== 'string') throw new Error('node:crypto returned no X25519 public key');
  return x;
}

/** Clamps a 32-byte X25519 scalar in place (RFC 7748 §5), as `xray x25519` does. */
function clamp(scalar: Buffer): Buffer {
  scalar.writeUInt8(scalar.readUInt8(0) & 248, 0);
  scalar.writeUInt8((scalar.readUInt8(31) & 127) | 64, 31);
  return scalar;
}

/** A fresh X25519 key pair for a REALITY inbound. */
export function generateRealityKeyPair(
  random: (size: number) => Buffer = randomBytes,
): RealityKeyPair {
  const privateKey = encodeRealityKey(clamp(Buffer.from(random(32))));
  return { privateKey, publicKey: realityPublicKey(privateKey) };
}

/** Whether a string is a valid REALITY short id: hex, even length, at most 16 characters. */
export function isRealityShortId(shortId: string): boolean {
  return SHORT_ID_PATTERN.test(shortId);
}

/** A random short id of `bytes` bytes (1 to 8): 2 to 16 lowercase hex characters. */
export function generateRealityShortId(bytes = 8): string {
  if (!Number.isInteger(bytes) || bytes < 1 || bytes > 8) {
    throw new Error(`a REALITY short id is 1 to 8 bytes, got ${bytes}`);
  }
  return randomBytes(bytes).toString('hex');
}
