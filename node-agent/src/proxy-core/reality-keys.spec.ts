import { createPrivateKey, createPublicKey, diffieHellman, generateKeyPairSync } from 'node:crypto';
import {
  encodeRealityKey,
  generateRealityKeyPair,
  generateRealityShortId,
  isRealityKey,
  isRealityShortId,
  realityPublicKey,
} from './reality-keys';

const hex = (value: string) => Buffer.from(value, 'hex');

/** RFC 7748 §6.1: Alice's and Bob's X25519 keys. */
const RFC7748 = {
  alicePrivate: hex('77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a'),
  alicePublic: hex('8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a'),
  bobPrivate: hex('5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb'),
  bobPublic: hex('de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f'),
};

/** The node:crypto private key object of a key in Xray's encoding. */
function privateKeyObject(privateKey: string) {
  return createPrivateKey({
    key: Buffer.concat([
      Buffer.from('302e020100300506032b656e04220420', 'hex'),
      Buffer.from(privateKey, 'base64url'),
    ]),
    format: 'der',
    type: 'pkcs8',
  });
}

/** The node:crypto public key object of a key in Xray's encoding. */
function publicKeyObject(publicKey: string) {
  return createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: publicKey }, format: 'jwk' });
}

describe('REALITY keys', () => {
  it('should derive the RFC 7748 public keys in base64 raw URL encoding', () => {
    expect(realityPublicKey(encodeRealityKey(RFC7748.alicePrivate))).toBe(
      RFC7748.alicePublic.toString('base64url'),
    );
    expect(realityPublicKey(encodeRealityKey(RFC7748.bobPrivate))).toBe(
      RFC7748.bobPublic.toString('base64url'),
    );
    // Xray's encoding: URL alphabet, no padding, 43 characters for 32 bytes.
    expect(encodeRealityKey(RFC7748.alicePublic)).toBe(
      'hSDwCYkwp1R0i33ctD73Wg2_Og0mOBr066SpjqqbTmo',
    );
  });

  it('should make a key pair whose public key belongs to its private key', () => {
    const pair = generateRealityKeyPair();
    expect(isRealityKey(pair.privateKey)).toBe(true);
    expect(isRealityKey(pair.publicKey)).toBe(true);
    expect(pair.privateKey).not.toBe(pair.publicKey);
    // node:crypto's own derivation agrees.
    expect(createPublicKey(privateKeyObject(pair.privateKey)).export({ format: 'jwk' }).x).toBe(
      pair.publicKey,
    );
    // A client holding the public key and the server holding the private key share a secret.
    const client = generateKeyPairSync('x25519');
    const serverSide = diffieHellman({
      privateKey: privateKeyObject(pair.privateKey),
      publicKey: client.publicKey,
    });
    const clientSide = diffieHellman({
      privateKey: client.privateKey,
      publicKey: publicKeyObject(pair.publicKey),
    });
    expect(serverSide.length).toBe(32);
    expect(clientSide.equals(serverSide)).toBe(true);
  });

  it('should store the private key clamped, as xray x25519 does, with the same public key', () => {
    const raw = Buffer.alloc(32, 0xff);
    const pair = generateRealityKeyPair(() => Buffer.from(raw));
    const stored = Buffer.from(pair.privateKey, 'base64url');
    expect(stored[0]).toBe(0xf8);
    expect(stored[31]).toBe(0x7f);
    expect(stored.subarray(1, 31).equals(raw.subarray(1, 31))).toBe(true);
    expect(pair.publicKey).toBe(realityPublicKey(encodeRealityKey(raw)));
  });

  it('should make a different key pair each time', () => {
    const keys = new Set(Array.from({ length: 20 }, () => generateRealityKeyPair().privateKey));
    expect(keys.size).toBe(20);
  });

  it.each([
    ['too short', 'hSDwCYkwp1R0i33ctD73Wg2_Og0mOBr066SpjqqbTm'],
    ['padded', 'hSDwCYkwp1R0i33ctD73Wg2_Og0mOBr066SpjqqbTmo='],
    ['standard alphabet', 'hSDwCYkwp1R0i33ctD73Wg2/Og0mOBr066SpjqqbTmo'],
    ['non-canonical last character', 'hSDwCYkwp1R0i33ctD73Wg2_Og0mOBr066SpjqqbTmp'],
    ['empty', ''],
  ])('should refuse a private key that is %s', (_, key) => {
    expect(isRealityKey(key)).toBe(false);
    expect(() => realityPublicKey(key)).toThrow('base64 raw URL encoding');
  });

  it('should refuse to encode a key that is not 32 bytes', () => {
    expect(() => encodeRealityKey(Buffer.alloc(31))).toThrow('32 bytes, got 31');
  });
});

describe('REALITY short ids', () => {
  it('should make random lowercase hex ids of 2 to 16 characters', () => {
    expect(generateRealityShortId()).toMatch(/^[0-9a-f]{16}$/);
    for (let bytes = 1; bytes <= 8; bytes++) {
      const id = generateRealityShortId(bytes);
      expect(id).toMatch(new RegExp(`^[0-9a-f]{${bytes * 2}}$`));
      expect(isRealityShortId(id)).toBe(true);
    }
    expect(new Set(Array.from({ length: 20 }, () => generateRealityShortId())).size).toBe(20);
  });

  it.each([0, 9, 1.5])('should refuse a short id of %s bytes', (bytes) => {
    expect(() => generateRealityShortId(bytes)).toThrow('1 to 8 bytes');
  });

  it('should accept what Xray accepts and nothing else', () => {
    for (const id of ['', '0a', '6ba85179e30d4fc2']) expect(isRealityShortId(id)).toBe(true);
    for (const id of ['a', 'abc', '6ba85179e30d4fc2aa', 'zz', '0A', ' 0a']) {
      expect(isRealityShortId(id)).toBe(false);
    }
  });
});
