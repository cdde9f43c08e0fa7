import { BlockList, isIPv4, isIPv6 } from 'node:net';
import {
  type AddressClass,
  SPECIAL_PURPOSE_IPV4,
  SPECIAL_PURPOSE_IPV6,
  TEST_NET_CIDRS,
} from '@scn/proto';

/**
 * Which addresses the control plane may connect to on an operator's behalf (Add New
 * Server): only public unicast ones. Everything an outsider could use to reach the control
 * plane's own network through its probes is refused: private, loopback, link-local (cloud
 * metadata at 169.254.169.254 among them), CGNAT, multicast, reserved, unspecified, the
 * documentation and benchmarking ranges, and the IPv6 equivalents. IPv6 forms that carry an IPv4
 * address (mapped, compatible, NAT64, 6to4, Teredo) are refused outright or judged by the IPv4
 * address inside, so `::ffff:127.0.0.1` is loopback. Pure: the caller resolves names.
 */

export type { AddressClass };

/** [network, prefix, class]; the IPv4-carrying IPv6 forms are judged in classifyAddress. */
const IPV4_RANGES = SPECIAL_PURPOSE_IPV4.map(
  ({ network, prefix, kind }) => [network, prefix, kind] as const,
);
const IPV6_RANGES = SPECIAL_PURPOSE_IPV6.filter((range) => !range.carriesIpv4).map(
  ({ network, prefix, kind }) => [network, prefix, kind] as const,
);

/** The ranges tests may be allowed to reach (MANUAL_SERVER_ALLOWED_CIDRS): documentation only. */
export const TEST_NETS: ReadonlyArray<readonly [string, number]> = TEST_NET_CIDRS.map((cidr) => {
  const [network = '', prefix] = cidr.split('/');
  return [network, Number(prefix)] as const;
});

function blockList(
  ranges: ReadonlyArray<readonly [string, number, AddressClass]>,
  family: 'ipv4' | 'ipv6',
): Array<[AddressClass, BlockList]> {
  return ranges.map(([network, prefix, kind]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, family);
    return [kind, list];
  });
}

const V4 = blockList(IPV4_RANGES, 'ipv4');
const V6 = blockList(IPV6_RANGES, 'ipv6');

/** The 16 bytes of an IPv6 address (with an optional dotted IPv4 tail); null if not one. */
export function ipv6Bytes(address: string): Uint8Array | null {
  const text = address.replace(/%.*$/, '');
  if (!isIPv6(text)) return null;
  let groups: string[];
  let tail: number[] = [];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  const head = v4 ? text.slice(0, -v4[1]!.length) + '0:0' : text;
  if (v4) tail = v4[1]!.split('.').map(Number);
  const [left, right] = head.split('::') as [string, string | undefined];
  const l = left ? left.split(':') : [];
  if (right === undefined) groups = l;
  else {
    const r = right ? right.split(':') : [];
    groups = [...l, ...Array<string>(8 - l.length - r.length).fill('0'), ...r];
  }
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    const value = parseInt(group, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 0xff;
  });
  if (v4) bytes.set(tail, 12);
  return bytes;
}

function ipv4Of(bytes: Uint8Array, offset: number): string {
  return Array.from(bytes.subarray(offset, offset + 4)).join('.');
}

/**
 * The class of a special-purpose address, or null for a public unicast one. Any string that is
 * not an IP address is 'reserved': only resolved addresses are judged here.
 */
export function classifyAddress(address: string): AddressClass | null {
  if (isIPv4(address)) {
    for (const [kind, list] of V4) if (list.check(address, 'ipv4')) return kind;
    return null;
  }
  const bytes = ipv6Bytes(address);
  if (!bytes) return 'reserved';
  const zeros = (from: number, to: number) => bytes.subarray(from, to).every((b) => b === 0);
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible, deprecated) and 64:ff9b::a.b.c.d (NAT64)
  // reach the IPv4 address inside: judge that one.
  const mapped = zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff;
  const compatible = zeros(0, 12) && !zeros(12, 16) && !(zeros(12, 15) && bytes[15] === 1);
  const nat64 =
    bytes[0] === 0x00 &&
    bytes[1] === 0x64 &&
    bytes[2] === 0xff &&
    bytes[3] === 0x9b &&
    zeros(4, 12);
  if (mapped || nat64) return classifyAddress(ipv4Of(bytes, 12));
  if (compatible) return 'reserved';
  const canonical = text6(bytes);
  for (const [kind, list] of V6) if (list.check(canonical, 'ipv6')) return kind;
  // Only global unicast (2000::/3) is public; everything else unassigned is reserved.
  if ((bytes[0]! & 0xe0) !== 0x20) return 'reserved';
  return null;
}

/** A parsed CIDR list (e.g. MANUAL_SERVER_ALLOWED_CIDRS). */
export class CidrList {
  private readonly list = new BlockList();
  readonly size: number;

  constructor(readonly cidrs: readonly string[]) {
    for (const cidr of cidrs) {
      const parsed = parseCidr(cidr);
      if (!parsed) throw new Error(`not a CIDR: ${cidr}`);
      this.list.addSubnet(parsed.network, parsed.prefix, parsed.family);
    }
    this.size = cidrs.length;
  }

  has(address: string): boolean {
    if (this.size === 0) return false;
    return isIPv4(address)
      ? this.list.check(address, 'ipv4')
      : isIPv6(address) && this.list.check(address, 'ipv6');
  }
}

export function parseCidr(
  cidr: string,
): { network: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const match = /^([^/]+)\/(\d{1,3})$/.exec(cidr.trim());
  if (!match) return null;
  const network = match[1]!;
  const prefix = Number(match[2]);
  if (isIPv4(network) && prefix <= 32) return { network, prefix, family: 'ipv4' };
  if (isIPv6(network) && prefix <= 128) return { network, prefix, family: 'ipv6' };
  return null;
}

/** Whether a CIDR lies wholly inside the documentation ranges (the only ones tests may allow). */
export function insideTestNets(cidr: string): boolean {
  const parsed = parseCidr(cidr);
  if (!parsed) return false;
  return TEST_NETS.some(([network, prefix]) => {
    const family = isIPv4(network) ? 'ipv4' : 'ipv6';
    if (family !== parsed.family || parsed.prefix < prefix) return false;
    const list = new BlockList();
    list.addSubnet(network, prefix, family);
    return list.check(parsed.network, family);
  });
}

export interface AddressPolicy {
  /** Documentation ranges a test may reach (empty in production). */
  allowed: CidrList;
  /** The control plane's own addresses (its interfaces, its public name, the probe target). */
  own: ReadonlySet<string>;
}

/**
 * Why the control plane must not connect to `address`, or null when it may. The allow list
 * only lifts the documentation ranges (it is validated to hold nothing else); the control
 * plane's own addresses are refused even then.
 */
export function refusal(address: string, policy: AddressPolicy): AddressClass | 'own' | null {
  const kind = classifyAddress(address);
  if (kind && !(kind === 'documentation' && policy.allowed.has(address))) return kind;
  return policy.own.has(normalize(address)) ? 'own' : null;
}

/** One spelling per address, so own-address sets compare (IPv4-mapped IPv6 as IPv4). */
export function normalize(address: string): string {
  if (isIPv4(address)) return address;
  const bytes = ipv6Bytes(address);
  if (!bytes) return address;
  if (bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) {
    return ipv4Of(bytes, 12);
  }
  // The WHATWG URL parser writes IPv6 in its compressed canonical form (RFC 5952).
  return new URL(`http://[${text6(bytes)}]`).hostname.slice(1, -1);
}

function text6(bytes: Uint8Array): string {
  return Array.from({ length: 8 }, (_, i) =>
    ((bytes[i * 2]! << 8) | bytes[i * 2 + 1]!).toString(16),
  ).join(':');
}
