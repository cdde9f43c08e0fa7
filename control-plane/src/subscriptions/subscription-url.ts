import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

/** 32 bytes: 256 bits of randomness, 43 base64url characters. */
const SECRET_BYTES = 32;
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface IssuedUrlSecret {
  secret: string;
  /** What the row stores to find it (HMAC, keyed by APP_SECRET). */
  hash: string;
  /** What the row stores to show it to its owner again (AES-256-GCM, key from APP_SECRET). */
  sealed: string;
}

/**
 * The secret of a subscription URL (`/sub/<secret>`). A subscription app fetches the URL with no
 * session, so the secret is the only key: 256 random bits. The database holds only an HMAC of it
 * (for the lookup) and a sealed copy (so the dashboard can show the URL again); both keys derive
 * from APP_SECRET, so a copy of the database alone neither serves nor reveals any URL. Changing
 * APP_SECRET makes every URL 404 until its owner rotates it.
 */
export class SubscriptionUrlSecrets {
  private readonly hashKey: Buffer;
  private readonly sealKey: Buffer;

  constructor(appSecret: string) {
    this.hashKey = createHmac('sha256', appSecret).update('scn/subscription-url/hash').digest();
    this.sealKey = createHmac('sha256', appSecret).update('scn/subscription-url/seal').digest();
  }

  issue(): IssuedUrlSecret {
    const secret = randomBytes(SECRET_BYTES).toString('base64url');
    return { secret, hash: this.hashOf(secret), sealed: this.seal(secret) };
  }

  /** The lookup hash of a secret from a URL; null when it cannot be one of ours. */
  lookupHash(secret: string): string | null {
    return SECRET_PATTERN.test(secret) ? this.hashOf(secret) : null;
  }

  /** The secret back from its sealed copy; null if it was sealed under another APP_SECRET. */
  unseal(sealed: string | null, expectedHash: string | null): string | null {
    if (!sealed || !expectedHash) return null;
    const bytes = Buffer.from(sealed, 'base64url');
    if (bytes.length < 12 + 16 + 1) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.sealKey, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      const secret = Buffer.concat([
        decipher.update(bytes.subarray(28)),
        decipher.final(),
      ]).toString('utf8');
      const hash = Buffer.from(this.hashOf(secret), 'hex');
      const expected = Buffer.from(expectedHash, 'hex');
      return hash.length === expected.length && timingSafeEqual(hash, expected) ? secret : null;
    } catch {
      return null;
    }
  }

  private hashOf(secret: string): string {
    return createHmac('sha256', this.hashKey).update(secret).digest('hex');
  }

  private seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv);
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }
}
