/**
 * The addresses that are not the public Internet (IANA special-purpose registries, RFC 6890 and
 * successors, plus multicast), in one table for both sides that must never be led there: the
 * control plane's manual-server probe (control-plane/src/common/address-policy.ts) and the node's
 * tunnel routing (node-agent/src/proxy-core/destination-policy.ts). TEST-NET-1/2/3 are in: they
 * are never routed on the Internet, so no real destination lives there, while a LAN numbered out
 * of them would be exposed. See docs/security.md, "Manual servers" and "Tunnel isolation".
 */

export type AddressClass =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'shared'
  | 'multicast'
  | 'reserved'
  | 'documentation';

export interface SpecialPurposeRange {
  network: string;
  prefix: number;
  kind: AddressClass;
  /**
   * An IPv6 range whose addresses carry an IPv4 address that a dialer reaches instead (mapped,
   * compatible, NAT64): a classifier judges the IPv4 address inside; a router blocks the range.
   */
  carriesIpv4?: true;
}

export const SPECIAL_PURPOSE_IPV4: readonly SpecialPurposeRange[] = [
  { network: '0.0.0.0', prefix: 8, kind: 'unspecified' }, // Linux dials 0.0.0.0 as 127.0.0.1
  { network: '10.0.0.0', prefix: 8, kind: 'private' }, // RFC 1918
  { network: '100.64.0.0', prefix: 10, kind: 'shared' }, // CGNAT, RFC 6598
  { network: '127.0.0.0', prefix: 8, kind: 'loopback' },
  { network: '169.254.0.0', prefix: 16, kind: 'link_local' }, // incl. metadata 169.254.169.254
  { network: '172.16.0.0', prefix: 12, kind: 'private' }, // RFC 1918
  { network: '192.0.0.0', prefix: 24, kind: 'reserved' }, // IETF protocol assignments
  { network: '192.0.2.0', prefix: 24, kind: 'documentation' }, // TEST-NET-1
  { network: '192.31.196.0', prefix: 24, kind: 'reserved' }, // AS112-v4
  { network: '192.52.193.0', prefix: 24, kind: 'reserved' }, // AMT
  { network: '192.88.99.0', prefix: 24, kind: 'reserved' }, // deprecated 6to4 relay anycast
  { network: '192.168.0.0', prefix: 16, kind: 'private' }, // RFC 1918
  { network: '192.175.48.0', prefix: 24, kind: 'reserved' }, // direct delegation AS112
  { network: '198.18.0.0', prefix: 15, kind: 'reserved' }, // benchmarking (and apps' fake-IP DNS)
  { network: '198.51.100.0', prefix: 24, kind: 'documentation' }, // TEST-NET-2
  { network: '203.0.113.0', prefix: 24, kind: 'documentation' }, // TEST-NET-3
  { network: '224.0.0.0', prefix: 4, kind: 'multicast' },
  { network: '240.0.0.0', prefix: 4, kind: 'reserved' }, // incl. broadcast 255.255.255.255
];

export const SPECIAL_PURPOSE_IPV6: readonly SpecialPurposeRange[] = [
  { network: '::', prefix: 128, kind: 'unspecified' }, // Linux dials it as ::1
  { network: '::1', prefix: 128, kind: 'loopback' },
  { network: '::ffff:0:0', prefix: 96, kind: 'reserved', carriesIpv4: true }, // IPv4-mapped
  { network: '::', prefix: 96, kind: 'reserved', carriesIpv4: true }, // IPv4-compatible
  { network: '64:ff9b::', prefix: 96, kind: 'reserved', carriesIpv4: true }, // NAT64 well-known
  { network: '64:ff9b:1::', prefix: 48, kind: 'private' }, // local-use NAT64
  { network: '100::', prefix: 64, kind: 'reserved' }, // discard-only
  { network: '2001::', prefix: 23, kind: 'reserved' }, // IETF: Teredo, ORCHID, benchmarking, ...
  { network: '2001:db8::', prefix: 32, kind: 'documentation' },
  { network: '2002::', prefix: 16, kind: 'reserved' }, // 6to4 (embeds an IPv4 address)
  { network: '3fff::', prefix: 20, kind: 'documentation' }, // RFC 9637
  { network: '5f00::', prefix: 16, kind: 'reserved' }, // SRv6 SIDs
  { network: 'fc00::', prefix: 7, kind: 'private' }, // unique local
  { network: 'fe80::', prefix: 10, kind: 'link_local' },
  { network: 'fec0::', prefix: 10, kind: 'private' }, // deprecated site-local
  { network: 'ff00::', prefix: 8, kind: 'multicast' },
];

/**
 * The documentation ranges (TEST-NET-1/2/3 and 2001:db8::/32): no network routes them, so a test
 * host of our own can live there. They are the only special-purpose ranges a test may open (the
 * control plane's MANUAL_TEST_CIDRS, the agent's --allow-test-destinations); loopback, private
 * and every other range never can be.
 */
export const TEST_NET_CIDRS: readonly string[] = [
  '192.0.2.0/24',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '2001:db8::/32',
];

/** `network/prefix`, as routing rules and CIDR lists write it. */
export function cidrOf(range: SpecialPurposeRange): string {
  return `${range.network}/${range.prefix}`;
}
