import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type ProxyCoreKind, UUID_PATTERN } from '@scn/proto';
import { ProxyCoreException } from './proxy-core.exception';
import { REALITY_MAX_CLIENT_VER, REALITY_MIN_CLIENT_VER } from './reality-targets';
import type { VlessInboundSettings } from './proxy-core';
import {
  complementCidrs,
  coreCidrs,
  hasGlobalIpv6,
  LOOPBACK_REACHING_CIDRS,
  SPECIAL_PURPOSE_CIDRS,
} from './destination-policy';

/** Tag of the VLESS inbound: HandlerService.AlterInbound addresses it by this name. */
export const VLESS_INBOUND_TAG = 'vless-in';
/** Tag of the API inbound, of its routing rule and of the `api` section. */
export const API_TAG = 'api';
export const CORE_CONFIG_FILE = 'core-config.json';
/** Tag of the TLS front of a ws inbound with a fallback (wsFront): it holds no users. */
export const FRONT_INBOUND_TAG = 'vless-front';
/** The ws inbound's Unix socket behind the front, in the core's 0700 work folder. */
export const WS_SOCKET_FILE = 'ws-inbound.sock';
const DIRECT_TAG = 'direct';
const BLOCKED_TAG = 'blocked';

export interface CoreConfigInput {
  kind: ProxyCoreKind;
  inbound: VlessInboundSettings;
  apiPort: number;
  allowedUuids: readonly string[];
  /**
   * The node's own interface addresses as host CIDRs (`ownInterfaceCidrs()`): blocked as
   * destinations, and never accepted in a DNS answer. The config must be rebuilt when they change.
   */
  ownAddresses?: readonly string[];
  /**
   * Test-only: let clients reach loopback, private and own addresses (loopback tests fetch from
   * 127.0.0.1). The core's API stays blocked on every address that reaches it, and names still
   * never resolve to loopback.
   */
  allowPrivateDestinations?: boolean;
  /**
   * Testing: documentation-range CIDRs clients may reach all the same (a test host in TEST-NET-2;
   * `run --allow-test-destinations`). Never overrides the API block or the own-address block,
   * which come first; loopback and private ranges cannot be given (parseTestDestinations).
   */
  allowedDestinationCidrs?: readonly string[];
  /**
   * Where the TLS inbound hands a connection that is not valid VLESS (`host:port` of a plain
   * HTTP server: the agent's decoy site or the operator's own; decoy.ts). Used on tcp + TLS only,
   * where the core reads the first bytes itself (VLESS fallbacks).
   */
  fallbackDest?: string;
  /**
   * The core's work folder (0700): with a fallback, a ws inbound listens on a Unix socket there,
   * behind a TLS front that falls back by path (wsFront).
   */
  socketDir?: string;
  /** Static names of the core's DNS (tests map a name to 127.0.0.1 without /etc/hosts). */
  dnsHosts?: Readonly<Record<string, string>>;
  /**
   * The node's nameservers (`/etc/resolv.conf`: `ip` or `ip:port`, IPv6 as `[ip]:port`). v2ray
   * asks them over UDP and caches their answers, so the router and freedom use one answer;
   * without any, or on Xray, the core uses the system resolver.
   */
  nameservers?: readonly string[];
}

/** The subset of the core's JSON config the agent writes (same schema for v2ray 4.34 and Xray). */
export interface CoreConfigJson {
  log: { loglevel: 'warning'; access: 'none' };
  api: { tag: string; services: string[] };
  stats: Record<string, never>;
  policy: { levels: Record<string, CorePolicyLevelJson> };
  dns: {
    hosts?: Record<string, string>;
    servers: { address: string; port?: number; expectIPs: string[] }[];
  };
  inbounds: CoreInboundJson[];
  outbounds: CoreOutboundJson[];
  routing: { domainStrategy: 'IPOnDemand'; rules: CoreRoutingRuleJson[] };
}

export interface CorePolicyLevelJson {
  statsUserUplink: boolean;
  statsUserDownlink: boolean;
}

export interface CoreOutboundJson {
  tag: string;
  protocol: 'freedom' | 'blackhole';
  settings?: { domainStrategy: FreedomDomainStrategy };
}

export type FreedomDomainStrategy = 'UseIP' | 'UseIPv4' | 'ForceIP' | 'ForceIPv4';

export interface CoreVlessClientJson {
  id: string;
  email: string;
  level: 0;
  flow?: string;
}

export interface CoreInboundJson {
  tag: string;
  listen: string;
  /** Absent when `listen` is a Unix socket. */
  port?: number;
  protocol: 'vless' | 'dokodemo-door';
  settings: Record<string, unknown>;
  streamSettings?: Record<string, unknown>;
}

export interface CoreRoutingRuleJson {
  type: 'field';
  inboundTag: string[];
  outboundTag: string;
  ip?: string[];
  port?: string;
}

/** The core's DNS server when it has no nameserver of its own: the system resolver. */
const SYSTEM_RESOLVER = 'localhost';

/**
 * Lower-cases, de-duplicates and validates client UUIDs. The core keys users by email (which
 * it lower-cases) and one malformed id in the config file would keep the whole core from
 * starting, so a bad id is refused before it reaches the core.
 */
export function normalizeClientUuids(uuids: readonly string[]): string[] {
  const normalized = new Set<string>();
  for (const uuid of uuids) {
    const lower = uuid.trim().toLowerCase();
    if (!UUID_PATTERN.test(lower)) {
      throw new ProxyCoreException('invalid_client_uuid', `Not a client UUID: "${uuid}".`);
    }
    normalized.add(lower);
  }
  return [...normalized].sort();
}

/**
 * Builds the core's config: the VLESS inbound with the allowed clients (email = uuid, so the
 * stats counters are per client), the API on loopback, per-user stats, a freedom outbound.
 */
export function buildCoreConfig(input: CoreConfigInput): CoreConfigJson {
  const { kind, inbound, apiPort } = input;
  const clients: CoreVlessClientJson[] = normalizeClientUuids(input.allowedUuids).map((uuid) => ({
    id: uuid,
    email: uuid,
    level: 0,
    ...(inbound.flow ? { flow: inbound.flow } : {}),
  }));

  const ownAddresses = [...(input.ownAddresses ?? [])];
  const allowPrivate = input.allowPrivateDestinations === true;
  // Addresses no lookup may answer: with private destinations allowed (tests) only those that
  // reach the API; otherwise every special-purpose range and the node's own addresses.
  const neverResolved = allowPrivate
    ? [...LOOPBACK_REACHING_CIDRS]
    : [...SPECIAL_PURPOSE_CIDRS, ...ownAddresses];
  const publicCidrs = coreCidrs([
    ...complementCidrs(4, neverResolved),
    ...complementCidrs(6, neverResolved),
  ]);
  // A test host let through by address may also be reached by a name that resolves to it.
  const resolvable = [...publicCidrs, ...(input.allowedDestinationCidrs ?? [])];
  const rules: CoreRoutingRuleJson[] = [
    { type: 'field', inboundTag: [API_TAG], outboundTag: API_TAG },
    // Blocking the API port matters even when private destinations are allowed: through the
    // freedom outbound a client could otherwise connect to 127.0.0.1:apiPort and add users.
    {
      type: 'field',
      inboundTag: [VLESS_INBOUND_TAG],
      ip: coreCidrs(LOOPBACK_REACHING_CIDRS),
      port: String(apiPort),
      outboundTag: BLOCKED_TAG,
    },
  ];
  if (!allowPrivate && ownAddresses.length > 0) {
    rules.push({
      type: 'field',
      inboundTag: [VLESS_INBOUND_TAG],
      ip: coreCidrs(ownAddresses),
      outboundTag: BLOCKED_TAG,
    });
  }
  if (input.allowedDestinationCidrs && input.allowedDestinationCidrs.length > 0) {
    rules.push({
      type: 'field',
      inboundTag: [VLESS_INBOUND_TAG],
      ip: [...input.allowedDestinationCidrs],
      outboundTag: DIRECT_TAG,
    });
  }
  if (!allowPrivate) {
    rules.push({
      type: 'field',
      inboundTag: [VLESS_INBOUND_TAG],
      ip: coreCidrs(SPECIAL_PURPOSE_CIDRS),
      outboundTag: BLOCKED_TAG,
    });
  }
  // An allow-list, not only a block-list: when the router's lookup of a name fails (or every
  // answer was filtered out, as for `localhost`), no IP rule matches, and without this last
  // rule the name would go to freedom, whose dialer falls back to the system resolver.
  rules.push(
    {
      type: 'field',
      inboundTag: [VLESS_INBOUND_TAG],
      ip: allowPrivate ? ['0.0.0.0/0', '::/0'] : publicCidrs,
      outboundTag: DIRECT_TAG,
    },
    { type: 'field', inboundTag: [VLESS_INBOUND_TAG], outboundTag: BLOCKED_TAG },
  );

  return {
    // No access log: it would write every client's destinations to the operator's journal.
    log: { loglevel: 'warning', access: 'none' },
    api: { tag: API_TAG, services: ['HandlerService', 'StatsService'] },
    stats: {},
    policy: { levels: { '0': { statsUserUplink: true, statsUserDownlink: true } } },
    // Every lookup the core makes goes through this DNS: the router's (IPOnDemand) and the
    // freedom outbound's (UseIP). Each answer is filtered to public addresses, so a name that
    // resolves to loopback, a private range or the node itself yields no address at all rather
    // than a dial to it (rebinding: see dnsServers). Static hosts bypass the filter; the routing
    // rules still see their address.
    dns: {
      ...(input.dnsHosts ? { hosts: { ...input.dnsHosts } } : {}),
      servers: dnsServers(kind, input.nameservers ?? [], resolvable),
    },
    inbounds: [
      ...vlessInbounds(kind, inbound, clients, input),
      {
        tag: API_TAG,
        listen: '127.0.0.1',
        port: apiPort,
        protocol: 'dokodemo-door',
        settings: { address: '127.0.0.1' },
      },
    ],
    // The first outbound is the default route (only the API's own traffic takes it now).
    outbounds: [
      {
        tag: DIRECT_TAG,
        protocol: 'freedom',
        settings: { domainStrategy: freedomStrategy(kind, hasGlobalIpv6(ownAddresses)) },
      },
      { tag: BLOCKED_TAG, protocol: 'blackhole' },
    ],
    // IPOnDemand: a destination given as a name is resolved before the IP rules are matched, so
    // `localhost` or a name pointing at 10.0.0.1 meets the same rules as the literal.
    routing: { domainStrategy: 'IPOnDemand', rules },
  };
}

/**
 * The VLESS inbound(s): one on the public port, or, for TLS over ws with a fallback, a TLS
 * front on the public port and the ws inbound on a Unix socket behind it (wsFront).
 */
function vlessInbounds(
  kind: ProxyCoreKind,
  inbound: VlessInboundSettings,
  clients: CoreVlessClientJson[],
  input: CoreConfigInput,
): CoreInboundJson[] {
  const listen = inbound.listen ?? '0.0.0.0';
  const front =
    inbound.security === 'tls' && inbound.network === 'ws' && input.fallbackDest && input.socketDir;
  if (!front) {
    return [
      {
        tag: VLESS_INBOUND_TAG,
        listen,
        port: inbound.port,
        protocol: 'vless',
        settings: {
          clients,
          decryption: 'none',
          ...vlessFallbacks(inbound, input.fallbackDest),
        },
        streamSettings: buildStreamSettings(kind, inbound),
      },
    ];
  }
  return wsFront(kind, inbound, clients, input.fallbackDest!, input.socketDir!);
}

/**
 * ws behind a TLS front (the "ws path fallback" of v2ray 4.34 and Xray): the front, on the
 * public port, is VLESS over tcp + TLS with no users, so every connection falls back: the
 * WebSocket upgrade for the inbound's path (matched on the request line) to the ws inbound on a
 * Unix socket in the core's work folder, everything else to the decoy. Without it a prober asking
 * for any other path would get the ws transport's bare 404, which no web server sends. The users
 * stay on the ws inbound (VLESS_INBOUND_TAG), where the API, the stats and the routing rules
 * find them.
 */
function wsFront(
  kind: ProxyCoreKind,
  inbound: VlessInboundSettings,
  clients: CoreVlessClientJson[],
  fallbackDest: string,
  socketDir: string,
): CoreInboundJson[] {
  const socket = path.resolve(socketDir, WS_SOCKET_FILE);
  const tls = buildStreamSettings(kind, { ...inbound, network: 'tcp' });
  const ws = buildStreamSettings(kind, { ...inbound, security: 'none' });
  return [
    {
      tag: FRONT_INBOUND_TAG,
      listen: inbound.listen ?? '0.0.0.0',
      port: inbound.port,
      protocol: 'vless',
      settings: {
        clients: [],
        decryption: 'none',
        fallbacks: [
          { path: inbound.path, dest: socket, xver: 0 },
          ...vlessFallbacks({ ...inbound, network: 'tcp' }, fallbackDest).fallbacks!,
        ],
      },
      // The front speaks HTTP/1.1 only: a WebSocket upgrade is an HTTP/1.1 request.
      streamSettings: {
        ...tls,
        tlsSettings: { ...(tls.tlsSettings as Record<string, unknown>), alpn: ['http/1.1'] },
      },
    },
    {
      tag: VLESS_INBOUND_TAG,
      listen: socket,
      protocol: 'vless',
      settings: { clients, decryption: 'none' },
      streamSettings: ws,
    },
  ];
}

/**
 * VLESS fallbacks (v2ray 4.34 and Xray, proxy/vless/inbound): on tcp + TLS the core reads the
 * first bytes after the handshake itself, and whatever is not a VLESS request of a known client
 * (an HTTP request, random bytes, a wrong uuid) goes, bytes and all, to `dest` instead of being
 * dropped; the prober gets that web server's answer through the node's TLS. ws gets it through
 * its TLS front (wsFront); grpc is Xray's, whose HTTP/2 layer answers first, and REALITY relays
 * strangers to its target before VLESS sees them, so neither takes one. xver 0: no PROXY header,
 * which a plain web server would print back as a bad request.
 */
function vlessFallbacks(
  inbound: VlessInboundSettings,
  dest: string | undefined,
): { fallbacks?: { path?: string; dest: string; xver: 0 }[] } {
  if (!dest || inbound.security !== 'tls' || inbound.network !== 'tcp') return {};
  if (!/^(\[[0-9a-fA-F:.]+\]|[^\s:/[\]]+):\d{1,5}$/.test(dest)) {
    throw new ProxyCoreException(
      'invalid_fallback',
      `The fallback must be host:port, not "${dest}".`,
    );
  }
  return { fallbacks: [{ dest, xver: 0 }] };
}

/**
 * The core's DNS servers. v2ray 4.34's "localhost" server (the system resolver) caches nothing,
 * so the router's lookup and freedom's are two separate questions, and a name answering
 * public then private (DNS rebinding) passes the router and is dialed by freedom's fallback.
 * Its UDP servers cache every answer (TTL 0 included, seen live), so both lookups get the one
 * answer the router checked. Xray fails a filtered lookup instead (ForceIP) and keeps the system
 * resolver, as it always had.
 */
function dnsServers(
  kind: ProxyCoreKind,
  nameservers: readonly string[],
  expectIPs: string[],
): CoreConfigJson['dns']['servers'] {
  const udp = kind === 'v2ray' ? nameservers.map(parseNameserver) : [];
  if (udp.length === 0) return [{ address: SYSTEM_RESOLVER, expectIPs }];
  return udp.map(({ address, port }) => ({ address, port, expectIPs }));
}

function parseNameserver(text: string): { address: string; port: number } {
  const match = /^\[([^\]]+)\]:(\d+)$/.exec(text) ?? /^([^:]+):(\d+)$/.exec(text);
  return match ? { address: match[1]!, port: Number(match[2]) } : { address: text, port: 53 };
}

/**
 * How freedom turns a name into an address. It resolves with the core's filtered DNS instead
 * of dialing the name through the system resolver, which nothing checks. v2ray 4.34's UseIP
 * still dials the name when that lookup yields nothing (the rebinding gap docs/security.md
 * describes); Xray's ForceIP fails the connection instead. Without a global IPv6 address of
 * its own the node could not dial an AAAA answer, so it asks for IPv4 only.
 */
function freedomStrategy(kind: ProxyCoreKind, ipv6: boolean): FreedomDomainStrategy {
  if (kind === 'xray') return ipv6 ? 'ForceIP' : 'ForceIPv4';
  return ipv6 ? 'UseIP' : 'UseIPv4';
}

/**
 * The transport part: `wsSettings.path` for ws and `grpcSettings.serviceName` for grpc (both the
 * same in v2ray 4.34 and Xray). Without its path or service name a ws or grpc inbound would
 * answer any path, so a missing one is refused.
 */
function transportSettings(inbound: VlessInboundSettings): Record<string, unknown> {
  switch (inbound.network) {
    case 'tcp':
      return {};
    case 'ws':
      if (!inbound.path?.startsWith('/')) {
        throw new ProxyCoreException('ws_needs_path', 'A ws inbound needs a path starting with /.');
      }
      return { wsSettings: { path: inbound.path } };
    case 'grpc':
      if (!inbound.serviceName) {
        throw new ProxyCoreException(
          'grpc_needs_service_name',
          'A grpc inbound needs serviceName.',
        );
      }
      return { grpcSettings: { serviceName: inbound.serviceName } };
  }
}

/** How often Xray rereads the certificate files (an hour: its own default, made explicit). */
export const XRAY_CERTIFICATE_RELOAD_S = 3600;

/** ALPN the TLS server offers: gRPC is HTTP/2, WebSocket upgrades an HTTP/1.1 request. */
const TLS_ALPN: Record<VlessInboundSettings['network'], string[] | null> = {
  tcp: null,
  ws: ['http/1.1'],
  grpc: ['h2'],
};

function buildStreamSettings(
  kind: ProxyCoreKind,
  inbound: VlessInboundSettings,
): Record<string, unknown> {
  const network = inbound.network;
  const transport = transportSettings(inbound);
  switch (inbound.security) {
    case 'none':
      return { network, security: 'none', ...transport };
    case 'tls': {
      if (!inbound.certificateFile || !inbound.keyFile) {
        throw new ProxyCoreException(
          'tls_needs_certificate',
          'A TLS inbound needs certificateFile and keyFile.',
        );
      }
      const alpn = TLS_ALPN[network];
      return {
        network,
        security: 'tls',
        tlsSettings: {
          ...(inbound.sni ? { serverName: inbound.sni } : {}),
          ...(alpn ? { alpn } : {}),
          // No TLS 1.0/1.1: DPI flags them ("Obsolete TLS Version", docs/security.md) and no app
          // needs them. v2ray 4.34 has no such setting and accepts them.
          ...(kind === 'xray' ? { minVersion: '1.2' } : {}),
          certificates: [
            {
              certificateFile: inbound.certificateFile,
              keyFile: inbound.keyFile,
              // Xray reloads the files this often (seconds; its hot reload shares the OCSP
              // ticker), so a renewed ACME certificate serves without a restart. v2ray 4.34
              // reads them at start only: the certificate manager restarts it.
              ...(kind === 'xray' ? { ocspStapling: XRAY_CERTIFICATE_RELOAD_S } : {}),
            },
          ],
        },
        ...transport,
      };
    }
    case 'reality':
      // Measured: v2ray 4.34 accepts `security: "reality"`, ignores it and serves plain,
      // unencrypted VLESS. Only Xray implements REALITY.
      if (kind !== 'xray') {
        throw new ProxyCoreException(
          'reality_needs_xray',
          `REALITY needs the Xray core; ${kind} would silently serve the inbound unencrypted.`,
        );
      }
      if (network === 'ws') {
        throw new ProxyCoreException(
          'reality_needs_tcp_or_grpc',
          'REALITY runs over tcp or grpc, not ws (Xray refuses it).',
        );
      }
      if (!inbound.realityPrivateKey) {
        throw new ProxyCoreException(
          'reality_needs_private_key',
          'A REALITY inbound needs realityPrivateKey.',
        );
      }
      if (!inbound.sni) {
        throw new ProxyCoreException('reality_needs_sni', 'A REALITY inbound needs sni.');
      }
      return {
        network,
        security: 'reality',
        realitySettings: {
          show: false,
          dest: inbound.realityDest ?? `${inbound.sni}:443`,
          xver: 0,
          serverNames: [inbound.sni],
          privateKey: inbound.realityPrivateKey,
          // Explicit: Xray v26.7.11+ reads an empty minClientVer as 26.3.27 and silently relays
          // every sing-box and mihomo client to the target (reality-targets.ts).
          minClientVer: REALITY_MIN_CLIENT_VER,
          maxClientVer: REALITY_MAX_CLIENT_VER,
          shortIds: [inbound.sid ?? ''],
        },
        ...transport,
      };
  }
}

/**
 * Writes the config into workDir (created 0700) as a 0600 file, atomically: the core may be
 * restarted by the supervisor at any moment and must never read a half-written file.
 */
export async function writeCoreConfig(workDir: string, config: CoreConfigJson): Promise<string> {
  await mkdir(workDir, { recursive: true, mode: 0o700 });
  const target = path.join(workDir, CORE_CONFIG_FILE);
  const temporary = `${target}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  // The mode given to writeFile is masked by the umask.
  await chmod(temporary, 0o600);
  await rename(temporary, target);
  return target;
}
