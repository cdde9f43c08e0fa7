import { isIPv6 } from 'node:net';

/** At most `limit` admitted requests within any `windowSeconds` (a sliding window) per bucket. */
export interface RateLimitRule {
  bucket: string;
  limit: number;
  windowSeconds: number;
}

const MINUTE = 60;
const HOUR = 3600;

/**
 * The key of a client address in a bucket. An IPv6 client commonly holds a whole /64 (its
 * provider's smallest assignment), so an address-keyed limit counts the /64: otherwise one
 * attacker would have 2^64 fresh addresses.
 */
export function addressKey(ip: string): string {
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === '' ? [] : tail.split(':');
  // An embedded IPv4 tail (::ffff:1.2.3.4) sits in the low 64 bits: it never changes the /64.
  const missing = Math.max(0, 8 - headGroups.length - tailGroups.length);
  const groups = [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * Limits on the calls that can be abused to guess passwords or codes, or to send mail.
 *
 * Each call is counted three ways. Per (e-mail, address): the tight limit, which is what an
 * attacker at one address hits, while the owner at theirs is not held back by it. Per e-mail,
 * from any address: a ceiling several times higher, which only a many-address attack reaches
 * and which still slows that attack down. Per address, whatever the e-mail: one address trying
 * many accounts. A refused request counts against none of them (rate_limit_take()).
 */
export const RATE_LIMITS = {
  /** Counted for failures only: a successful sign-in gives its slots back (AuthService). */
  login: (ip: string, email: string): RateLimitRule[] => [
    { bucket: `login:pair:${addressKey(ip)}:${email}`, limit: 10, windowSeconds: 15 * MINUTE },
    { bucket: `login:email:${email}`, limit: 100, windowSeconds: HOUR },
    { bucket: `login:ip:${addressKey(ip)}`, limit: 30, windowSeconds: 15 * MINUTE },
  ],
  register: (ip: string, email: string): RateLimitRule[] => [
    { bucket: `register:pair:${addressKey(ip)}:${email}`, limit: 10, windowSeconds: HOUR },
    { bucket: `register:email:${email}`, limit: 30, windowSeconds: HOUR },
    { bucket: `register:ip:${addressKey(ip)}`, limit: 20, windowSeconds: HOUR },
  ],
  generateCode: (ip: string, email: string): RateLimitRule[] => [
    { bucket: `code:pair:${addressKey(ip)}:${email}`, limit: 5, windowSeconds: HOUR },
    { bucket: `code:email:${email}`, limit: 10, windowSeconds: HOUR },
    { bucket: `code:ip:${addressKey(ip)}`, limit: 20, windowSeconds: HOUR },
  ],
  forgotPassword: (ip: string, email: string): RateLimitRule[] => [
    { bucket: `forgot:pair:${addressKey(ip)}:${email}`, limit: 5, windowSeconds: HOUR },
    { bucket: `forgot:email:${email}`, limit: 10, windowSeconds: HOUR },
    { bucket: `forgot:ip:${addressKey(ip)}`, limit: 20, windowSeconds: HOUR },
  ],
  resetPassword: (ip: string, email: string): RateLimitRule[] => [
    { bucket: `reset:pair:${addressKey(ip)}:${email}`, limit: 10, windowSeconds: HOUR },
    { bucket: `reset:email:${email}`, limit: 30, windowSeconds: HOUR },
    { bucket: `reset:ip:${addressKey(ip)}`, limit: 30, windowSeconds: HOUR },
  ],
  /** Each deposit request is a row and a fresh reference: an account may not flood them. */
  depositRequest: (accountUuid: string): RateLimitRule[] => [
    { bucket: `deposit-request:account:${accountUuid}`, limit: 20, windowSeconds: HOUR },
  ],
  /** Each verify may ask the Solana RPC several times (a paid resource in production). */
  depositVerify: (accountUuid: string): RateLimitRule[] => [
    { bucket: `deposit-verify:account:${accountUuid}`, limit: 60, windowSeconds: 10 * MINUTE },
  ],
  /** A client's reachability reports (docs/reachability.md#abuse): a checklist, not a feed. */
  reachabilityReport: (accountUuid: string): RateLimitRule[] => [
    { bucket: `reachability-report:account:${accountUuid}`, limit: 20, windowSeconds: HOUR },
    {
      bucket: `reachability-report:account-day:${accountUuid}`,
      limit: 60,
      windowSeconds: 24 * HOUR,
    },
  ],
  contact: (ip: string): RateLimitRule[] => [
    { bucket: `contact:ip:${addressKey(ip)}`, limit: 5, windowSeconds: HOUR },
  ],
} as const;
