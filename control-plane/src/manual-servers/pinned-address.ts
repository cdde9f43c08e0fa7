import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import {
  type AddressClass,
  type AddressPolicy,
  normalize,
  refusal,
} from '../common/address-policy';

const LOOKUP_TIMEOUT_MS = 5_000;

export type PinResult =
  /** `addresses`: every resolved address, all checked, in the resolver's order; `address` the first. */
  | { ok: true; address: string; family: 4 | 6; addresses: string[] }
  | { ok: false; reason: 'unresolvable' }
  | { ok: false; reason: 'refused'; address: string; kind: AddressClass | 'own' };

/** A link's host without the brackets of an IPv6 literal. */
export function bareHost(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * Resolves `host` now and checks every address it resolves to; the answer is one of them, to
 * be connected to as a literal. Checking all of them (not only the one used) refuses a name
 * that mixes a public address with a private one. Connecting to the checked literal, never to
 * the name, is the DNS-rebinding pin: a second lookup by the socket could answer differently
 * (TTL 0) and reach an address nobody checked. Each probe pins afresh, so a name moved to a
 * refused address is refused at the next probe.
 */
export type Resolver = (name: string) => Promise<Array<{ address: string; family: number }>>;

/** The system resolver (getaddrinfo: /etc/hosts, then DNS), every address in its order. */
export const systemResolver: Resolver = (name) => lookup(name, { all: true, verbatim: true });

export async function pinAddress(
  host: string,
  policy: AddressPolicy,
  resolve: Resolver = systemResolver,
): Promise<PinResult> {
  const name = bareHost(host);
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(name)) addresses = [{ address: name, family: isIP(name) }];
  else {
    try {
      addresses = await withTimeout(resolve(name), LOOKUP_TIMEOUT_MS);
    } catch {
      return { ok: false, reason: 'unresolvable' };
    }
  }
  if (addresses.length === 0) return { ok: false, reason: 'unresolvable' };
  for (const { address } of addresses) {
    const kind = refusal(address, policy);
    if (kind) return { ok: false, reason: 'refused', address: normalize(address), kind };
  }
  const first = addresses[0]!;
  return {
    ok: true,
    address: first.address,
    family: first.family === 6 ? 6 : 4,
    addresses: addresses.map((entry) => entry.address),
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
