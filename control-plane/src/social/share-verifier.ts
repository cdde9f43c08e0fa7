import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { classifyAddress } from '../common/address-policy';

/**
 * Whether a shared post is still up (the post must stay up 24 hours or the reward
 * is forfeited), asked by the payout job when SHARE_VERIFY_FETCH is on. Only a 404 or 410 proves
 * a post gone; anything else that is not a 2xx (a timeout, a 5xx, a refused address, too many
 * redirects) is `unknown`, and the reward is paid: a platform that cannot be reached is not the
 * user's fault.
 *
 * Safety: the name is resolved by our own lookup and only public unicast addresses are dialled
 * (the same policy as manual servers: private, link-local with cloud metadata, CGNAT, ... are
 * refused, and the check is on the address actually connected to, so DNS rebinding cannot move
 * it). Loopback is allowed only for a base URL configured explicitly (SHARE_VERIFY_BASE_URL, for
 * tests). At most 3 redirects, each judged again; 5 s per request; the body is never read beyond
 * 64 KiB (only the status matters).
 */
export type PostCheck = 'up' | 'gone' | 'unknown';

export interface VerifySettings {
  /** Where post paths are fetched from instead of the platform (tests: a loopback server). */
  baseUrl: string | null;
  timeoutMs: number;
}

const MAX_REDIRECTS = 3;
const MAX_BODY_BYTES = 64 * 1024;

export class AddressRefused extends Error {}

/** Whether the verifier may dial `address`: public unicast, or loopback when allowed. */
export function addressAllowed(address: string, allowLoopback: boolean): boolean {
  const kind = classifyAddress(address);
  return kind === null || (allowLoopback && kind === 'loopback');
}

/** A lookup that answers only addresses the policy allows (loopback only when `allowLoopback`). */
export function guardedLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 4);
      const allowed = addresses.filter((entry) => addressAllowed(entry.address, allowLoopback));
      if (allowed.length === 0) {
        return callback(new AddressRefused(`refused address for ${hostname}`), '', 4);
      }
      if (options.all) {
        (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
        return;
      }
      callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

/** The URL the verifier asks for a post (the configured base with the post's path, in tests). */
export function verifyTarget(postUrl: string, path: string, baseUrl: string | null): URL {
  return baseUrl ? new URL(path, baseUrl) : new URL(postUrl);
}

function requestOnce(
  target: URL,
  settings: VerifySettings,
): Promise<{ status: number; location: string | null }> {
  const allowLoopback = settings.baseUrl !== null && new URL(settings.baseUrl).host === target.host;
  const client = target.protocol === 'https:' ? https : http;
  // An address in the URL itself is dialled without a lookup: judge it here.
  const literal = target.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) !== 0 && !addressAllowed(literal, allowLoopback)) {
    return Promise.reject(new AddressRefused(`refused address ${literal}`));
  }
  return new Promise((resolve, reject) => {
    const request = client.request(
      target,
      {
        method: 'GET',
        lookup: guardedLookup(allowLoopback),
        timeout: settings.timeoutMs,
        headers: { 'user-agent': 'scn-share-verifier/1', accept: 'text/html' },
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_BODY_BYTES) response.destroy();
        });
        response.on('error', () => undefined);
        response.on('close', () => undefined);
        const location = response.headers.location ?? null;
        resolve({ status: response.statusCode ?? 0, location });
        // The status is all we need: stop reading.
        response.destroy();
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', reject);
    request.end();
  });
}

/** Fetches `target` (following at most 3 redirects, http(s) only) and judges the post. */
export async function checkPost(target: URL, settings: VerifySettings): Promise<PostCheck> {
  let url = target;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'unknown';
    let answer: { status: number; location: string | null };
    try {
      answer = await requestOnce(url, settings);
    } catch {
      return 'unknown';
    }
    if (answer.status === 404 || answer.status === 410) return 'gone';
    if (answer.status >= 200 && answer.status < 300) return 'up';
    if (answer.status >= 300 && answer.status < 400 && answer.location) {
      try {
        url = new URL(answer.location, url);
      } catch {
        return 'unknown';
      }
      continue;
    }
    return 'unknown';
  }
  return 'unknown';
}
