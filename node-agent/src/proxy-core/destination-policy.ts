import { readFile } from 'node:fs/promises';
import { isIPv4, isIPv6 } from 'node:net';
import os from 'node:os';
import { cidrOf, SPECIAL_PURPOSE_IPV4, SPECIAL_PURPOSE_IPV6, TEST_NET_CIDRS } from '@scn/proto';

/**
 * Where a client's traffic may go through the node. A VLESS client names its destination as an
 * IP literal or a domain name; the core must never carry it to the node itself, the operator's
 * network or the cloud's metadata service, whichever spelling the client used. These lists
 * feed the core config's routing rules (checked on literals and on names the router resolves)
 * and its DNS answer filter (so no lookup the core makes, the router's or the outbound's, can
 * yield such an address). See docs/security.md "Tunnel isolation".
 */

/**
 * Destinations that are not the public Internet (`@scn/proto` special-purpose ranges). The
 * IPv4-mapped and translated IPv6 ranges are in because a dialer turns `::ffff:10.0.0.1` into
 * 10.0.0.1: they would smuggle any private IPv4 address past the IPv4 rules.
 */
export const SPECIAL_PURPOSE_V4: readonly string[] = SPECIAL_PURPOSE_IPV4.map(cidrOf);
export const SPECIAL_PURPOSE_V6: readonly string[] = SPECIAL_PURPOSE_IPV6.map(cidrOf);

/** Everything a tunnel client must never reach (besides the node's own addresses). */
export const SPECIAL_PURPOSE_CIDRS: readonly string[] = [
  ...SPECIAL_PURPOSE_V4,
  ...SPECIAL_PURPOSE_V6,
];

/**
 * Every address at which a socket bound to 127.0.0.1 (the core's API) can be reached: loopback,
 * the unspecified addresses (which Linux dials as loopback) and their IPv4-mapped spellings.
 */
export const LOOPBACK_REACHING_CIDRS: readonly string[] = [
  '127.0.0.0/8',
  '0.0.0.0/8',
  '::1/128',
  '::/128',
  '::ffff:127.0.0.0/104',
  '::ffff:0.0.0.0/104',
];

/**
 * The node's own interface addresses that the special-purpose ranges do not already block
 * (its public addresses), as host CIDRs: a service bound to 0.0.0.0 on the node answers on each
 * of them. Leaving out the rest (loopback, link-local, a Docker bridge, a veth of a container or
 * a network namespace) blocks nothing less, and keeps those interfaces, which come and go, from
 * restarting the core (the audit restarts it when this list changes). Addresses inside `opened`
 * (the test destinations `run --allow-test-destinations` lets through) are listed too: opening a
 * range must not open the node's own address in it.
 */
export function ownInterfaceCidrs(
  interfaces: NodeJS.Dict<os.NetworkInterfaceInfo[]> = os.networkInterfaces(),
  opened: readonly string[] = [],
): string[] {
  const openedCidrs = opened.map(parseCidr);
  const cidrs = new Set<string>();
  for (const entries of Object.values(interfaces)) {
    for (const entry of entries ?? []) {
      // A link-local IPv6 address carries its zone ("fe80::1%eth0") in some Node versions.
      const address = entry.address.split('%')[0] ?? '';
      let cidr: string | null = null;
      if (isIPv4(address)) cidr = `${address}/32`;
      else if (isIPv6(address)) cidr = `${canonicalV6(parseV6(address))}/128`;
      if (!cidr) continue;
      const host = parseCidr(cidr);
      if (!isSpecialPurpose(cidr) || openedCidrs.some((range) => contains(range, host))) {
        cidrs.add(cidr);
      }
    }
  }
  return [...cidrs].sort();
}

function isSpecialPurpose(cidr: string): boolean {
  const parsed = parseCidr(cidr);
  return SPECIAL_PURPOSE_CIDRS.some((special) => contains(parseCidr(special), parsed));
}

/**
 * The nameservers of a resolv.conf (at most 3, as the C library reads): IP literals only; a
 * link-local IPv6 one with a zone cannot be named to the core and is left out.
 */
export function parseResolvConf(text: string): string[] {
  const servers: string[] = [];
  for (const line of text.split('\n')) {
    const match = /^\s*nameserver\s+(\S+)/.exec(line);
    const address = match?.[1];
    if (!address || address.includes('%')) continue;
    if (isIPv4(address)) servers.push(address);
    else if (isIPv6(address)) servers.push(`[${address}]:53`);
  }
  return servers.slice(0, 3);
}

/** The nameservers of /etc/resolv.conf; none when it cannot be read. */
export async function readSystemNameservers(): Promise<string[]> {
  try {
    return parseResolvConf(await readFile('/etc/resolv.conf', 'utf8'));
  } catch {
    return [];
  }
}

/** Whether the node has a global IPv6 address, i.e. can dial IPv6 destinations at all. */
export function hasGlobalIpv6(ownCidrs: readonly string[]): boolean {
  const global = parseCidr('2000::/3');
  return ownCidrs.some((cidr) => {
    const parsed = parseCidr(cidr);
    return parsed.family === 6 && contains(global, parsed) && !isSpecialV6(parsed);
  });
}

function isSpecialV6(cidr: ParsedCidr): boolean {
  return SPECIAL_PURPOSE_V6.some((special) => contains(parseCidr(special), cidr));
}

interface ParsedCidr {
  family: 4 | 6;
  /** The network address as an integer of 32 or 128 bits. */
  base: bigint;
  prefix: number;
}

const BITS = { 4: 32, 6: 128 } as const;

export function parseCidr(cidr: string): ParsedCidr {
  const [address = '', prefixText] = cidr.split('/');
  const family = isIPv4(address) ? 4 : isIPv6(address) ? 6 : null;
  if (family === null) throw new Error(`not an IP address: ${cidr}`);
  const bits = BITS[family];
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > bits) {
    throw new Error(`bad prefix length: ${cidr}`);
  }
  const value = family === 4 ? parseV4(address) : parseV6(address);
  return { family, base: value & mask(bits, prefix), prefix };
}

function mask(bits: number, prefix: number): bigint {
  const all = (1n << BigInt(bits)) - 1n;
  return all ^ ((1n << BigInt(bits - prefix)) - 1n);
}

function parseV4(address: string): bigint {
  return address.split('.').reduce((value, octet) => (value << 8n) | BigInt(Number(octet)), 0n);
}

function parseV6(address: string): bigint {
  let text = address;
  // An embedded IPv4 tail (::ffff:1.2.3.4) becomes two hextets.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4?.[1]) {
    const value = parseV4(v4[1]);
    text = `${text.slice(0, -v4[1].length)}${(value >> 16n).toString(16)}:${(value & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headParts = head === '' ? [] : head.split(':');
  const tailParts = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headParts.length - tailParts.length;
  const parts = [
    ...headParts,
    ...Array<string>(tail === undefined ? 0 : missing).fill('0'),
    ...tailParts,
  ];
  return parts.reduce((value, part) => (value << 16n) | BigInt(parseInt(part, 16)), 0n);
}

function formatCidr(cidr: ParsedCidr): string {
  if (cidr.family === 4) {
    const octets = [24n, 16n, 8n, 0n].map((shift) => String((cidr.base >> shift) & 0xffn));
    return `${octets.join('.')}/${cidr.prefix}`;
  }
  return `${canonicalV6(cidr.base)}/${cidr.prefix}`;
}

/** RFC 5952 text of a 128-bit address (longest zero run compressed). */
function canonicalV6(value: bigint): string {
  const hextets = Array.from({ length: 8 }, (_, i) =>
    Number((value >> BigInt(112 - 16 * i)) & 0xffffn),
  );
  let bestStart = -1;
  let bestLength = 0;
  for (let i = 0; i < 8;) {
    if (hextets[i] !== 0) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < 8 && hextets[j] === 0) j += 1;
    if (j - i > bestLength && j - i > 1) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const text = hextets.map((h) => h.toString(16));
  if (bestStart < 0) return text.join(':');
  const head = text.slice(0, bestStart).join(':');
  const tail = text.slice(bestStart + bestLength).join(':');
  return `${head}::${tail}`;
}

function contains(outer: ParsedCidr, inner: ParsedCidr): boolean {
  if (outer.family !== inner.family || outer.prefix > inner.prefix) return false;
  return (inner.base & mask(BITS[outer.family], outer.prefix)) === outer.base;
}

function overlaps(a: ParsedCidr, b: ParsedCidr): boolean {
  return contains(a, b) || contains(b, a);
}

/**
 * The smallest list of CIDRs covering exactly the addresses of `family` outside `excluded`:
 * the "public" list the core's DNS answers are filtered against.
 */
export function complementCidrs(family: 4 | 6, excluded: readonly string[]): string[] {
  const blocks = excluded.map(parseCidr).filter((cidr) => cidr.family === family);
  const bits = BITS[family];
  const result: string[] = [];
  const visit = (cidr: ParsedCidr): void => {
    if (blocks.some((block) => contains(block, cidr))) return;
    if (!blocks.some((block) => overlaps(block, cidr))) {
      result.push(formatCidr(cidr));
      return;
    }
    const prefix = cidr.prefix + 1;
    visit({ family, base: cidr.base, prefix });
    visit({ family, base: cidr.base | (1n << BigInt(bits - prefix)), prefix });
  };
  visit({ family, base: 0n, prefix: 0 });
  return result;
}

/**
 * The list as the core's config may spell it. v2ray 4.34 and Xray parse an IPv4-mapped CIDR
 * (`::ffff:127.0.0.0/104`) as IPv4 and refuse its mask, and they turn a mapped destination into
 * its IPv4 address before routing (checked live in tunnel-isolation.e2e-spec.ts): the IPv4 rules
 * already cover those, so the mapped entries are left out of the config.
 */
export function coreCidrs(cidrs: readonly string[]): string[] {
  const mapped = parseCidr('::ffff:0:0/96');
  return cidrs.filter((cidr) => !contains(mapped, parseCidr(cidr)));
}

/**
 * The destinations `scn-agent run --allow-test-destinations` (or SCN_AGENT_ALLOW_TEST_DESTINATIONS)
 * lets through: a comma-separated list of CIDRs (or addresses) that must each lie wholly inside
 * the documentation ranges (`@scn/proto` TEST_NET_CIDRS), where a test host of our own can live
 * and no real destination does. Anything else is refused with the reason: this setting must never
 * open loopback, a private range or the public Internet's blocks. Answers normalised CIDRs; throws
 * an Error saying which entry is refused and why (the caller names the setting).
 */
export function parseTestDestinations(text: string): string[] {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new Error('give at least one CIDR, e.g. 198.51.100.7/32');
  const ranges = TEST_NET_CIDRS.map(parseCidr);
  return entries.map((entry) => {
    let parsed: ParsedCidr;
    try {
      parsed = parseCidr(entry);
    } catch {
      throw new Error(`"${entry}" is not a CIDR such as 198.51.100.7/32`);
    }
    if (!ranges.some((range) => contains(range, parsed))) {
      throw new Error(
        `${entry} is outside the documentation ranges (${TEST_NET_CIDRS.join(', ')}); ` +
          'only those (or a narrower CIDR inside them) can be opened, never loopback, private or public addresses',
      );
    }
    return formatCidr(parsed);
  });
}

/** Whether `address` (an IP literal) falls in any of `cidrs`. */
export function inAnyCidr(address: string, cidrs: readonly string[]): boolean {
  const host = parseCidr(address);
  return cidrs.some((cidr) => contains(parseCidr(cidr), host));
}
