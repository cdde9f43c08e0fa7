import { parseVlessLink, type VlessLink } from '@scn/proto';
import { stringify } from 'yaml';

/**
 * One server of a feed, as every format needs it: read back from the share link the feed would
 * serve, so every format carries exactly the parameters of the link (agent inbounds and manual
 * links alike).
 */
export interface FeedServer {
  /** The share link it was read from. */
  link: string;
  name: string;
  host: string;
  port: number;
  uuid: string;
  /** As the link says: none, tls, reality, or another a format may not carry. */
  security: string;
  sni: string;
  fp: string;
  pbk: string;
  sid: string;
  flow: string;
  alpn: string[];
  network: string;
  /** ws: the path and the Host header. */
  path: string;
  hostHeader: string;
  /** grpc: the service name. */
  serviceName: string;
  /**
   * TLS with a self-signed certificate: the leaf's SHA-256 (hex, the link's `pcs`) and, when the
   * feed has it, the certificate (PEM) for the formats that trust a certificate, not a hash.
   */
  pin: string;
  certificatePem: string;
}

/** Where url-test groups probe (HTTP 204, the check every client app uses by default). */
export const PROBE_URL = 'https://www.gstatic.com/generate_204';
export const AUTO_GROUP = 'Auto (best server)';
export const SELECT_GROUP = 'SCN';

/** The feed's servers from its links; a link that does not parse is left out. */
export function feedServers(
  links: readonly string[],
  certificates: ReadonlyMap<string, string> = new Map(),
): FeedServer[] {
  const servers: FeedServer[] = [];
  for (const text of links) {
    const link = text ? parseVlessLink(text, { checkValues: false }) : null;
    if (link) servers.push(fromLink(text, link, certificates));
  }
  return uniqueNames(servers);
}

/** A `pcs` value this product writes: one lower-case hex SHA-256 (others are not pinned). */
const PIN = /^[0-9a-f]{64}$/;

function fromLink(
  text: string,
  link: VlessLink,
  certificates: ReadonlyMap<string, string>,
): FeedServer {
  const p = link.params;
  const security = p.security || 'none';
  const network = p.type === 'raw' || !p.type ? 'tcp' : p.type;
  return {
    link: text,
    name: link.name || `${link.host}:${link.port}`,
    host: link.host,
    port: link.port,
    uuid: link.uuid,
    security,
    sni: p.sni ?? '',
    fp: p.fp ?? '',
    pbk: p.pbk ?? '',
    sid: p.sid ?? '',
    flow: p.flow ?? '',
    alpn: (p.alpn ?? '')
      .split(',')
      .map((value) => value.trim())
      .filter(Boolean),
    network,
    path: p.path ?? '',
    hostHeader: p.host ?? '',
    serviceName: p.serviceName ?? '',
    pin: p.pcs ?? '',
    certificatePem: (p.pcs && certificates.get(p.pcs)) || '',
  };
}

/** Tags and proxy names must be unique in every format: a repeated name gets " 2", " 3". */
function uniqueNames(servers: FeedServer[]): FeedServer[] {
  const seen = new Map<string, number>();
  const reserved = new Set([AUTO_GROUP, SELECT_GROUP, 'direct', 'DIRECT', 'REJECT']);
  return servers.map((server) => {
    let name = server.name;
    let count = seen.get(name) ?? (reserved.has(name) ? 1 : 0);
    while (count > 0 && seen.has(`${server.name} ${count + 1}`)) count += 1;
    if (count > 0) name = `${server.name} ${count + 1}`;
    seen.set(server.name, count + 1);
    seen.set(name, 1);
    return { ...server, name };
  });
}

/** The transports each format writes here (anything else is left out of that format). */
const NETWORKS = {
  singbox: ['tcp', 'ws', 'grpc', 'httpupgrade'],
  clash: ['tcp', 'ws', 'grpc'],
  xray: ['tcp', 'ws', 'grpc', 'httpupgrade'],
} as const;

/**
 * Whether a format can carry a server as its link describes it. A server it cannot (an
 * unknown security such as the retired `xtls`, REALITY without a public key, a transport the
 * format does not write) is left out of that format rather than written as something else
 * (plain TCP instead of xhttp would not connect, plaintext instead of xtls would be worse); the
 * base64 links and the page still list it.
 */
export function carries(format: keyof typeof NETWORKS | 'v2ray', server: FeedServer): boolean {
  if (!['none', 'tls', 'reality'].includes(server.security)) return false;
  if (server.security === 'reality' && !server.pbk) return false;
  if (server.pin) {
    // A pinned self-signed certificate: a pin this product does not write cannot be honoured,
    // and sing-box and v2ray trust the certificate itself, so they need the PEM.
    if (!PIN.test(server.pin)) return false;
    if ((format === 'singbox' || format === 'v2ray') && !server.certificatePem) return false;
  }
  if (format === 'v2ray') return v2rayCarries(server);
  return (NETWORKS[format] as readonly string[]).includes(server.network);
}

// ---------------------------------------------------------------- sing-box

/**
 * sing-box configuration (sing-box.sagernet.org/configuration, 1.11 and later): a `vless`
 * outbound per server, a `urltest` group across them, a `selector` defaulting to it, a tun
 * inbound for the apps and a local mixed proxy, and a route whose final outbound is the selector.
 */
export function renderSingBox(all: readonly FeedServer[]): string {
  const servers = all.filter((server) => carries('singbox', server));
  const tags = servers.map((server) => server.name);
  const config = {
    log: { level: 'warn' },
    inbounds: [
      {
        type: 'tun',
        tag: 'tun-in',
        // 198.18.0.0/15 is the benchmarking range (RFC 2544), unused on real networks.
        address: ['198.18.0.1/30'],
        auto_route: true,
        strict_route: true,
      },
      { type: 'mixed', tag: 'mixed-in', listen: '127.0.0.1', listen_port: 2080 },
    ],
    outbounds: [
      {
        type: 'selector',
        tag: SELECT_GROUP,
        outbounds: [AUTO_GROUP, ...tags],
        default: AUTO_GROUP,
      },
      {
        type: 'urltest',
        tag: AUTO_GROUP,
        outbounds: tags.length > 0 ? tags : ['direct'],
        url: PROBE_URL,
        interval: '3m',
        tolerance: 50,
      },
      ...servers.map(singBoxOutbound),
      { type: 'direct', tag: 'direct' },
    ],
    // Rule actions (sing-box 1.11+): sniff the domain, answer DNS through the tunnel.
    route: {
      rules: [{ action: 'sniff' }, { protocol: 'dns', action: 'hijack-dns' }],
      final: SELECT_GROUP,
      auto_detect_interface: true,
    },
  };
  return JSON.stringify(config, null, 2) + '\n';
}

function singBoxOutbound(server: FeedServer): Record<string, unknown> {
  const outbound: Record<string, unknown> = {
    type: 'vless',
    tag: server.name,
    server: server.host,
    server_port: server.port,
    uuid: server.uuid,
  };
  if (server.flow) outbound.flow = server.flow;
  if (server.security !== 'none') {
    const tls: Record<string, unknown> = { enabled: true };
    if (server.sni) tls.server_name = server.sni;
    if (server.alpn.length > 0) tls.alpn = server.alpn;
    // REALITY needs uTLS; sing-box's own default fingerprint is chrome.
    const fingerprint = server.fp || (server.security === 'reality' ? 'chrome' : '');
    if (fingerprint) tls.utls = { enabled: true, fingerprint };
    if (server.security === 'reality') {
      tls.reality = { enabled: true, public_key: server.pbk, short_id: server.sid };
    }
    // The self-signed certificate, trusted as the only root for this outbound.
    if (server.certificatePem) tls.certificate = server.certificatePem;
    outbound.tls = tls;
  }
  if (server.network === 'ws') {
    const transport: Record<string, unknown> = { type: 'ws', path: server.path || '/' };
    if (server.hostHeader) transport.headers = { Host: server.hostHeader };
    outbound.transport = transport;
  } else if (server.network === 'grpc') {
    outbound.transport = { type: 'grpc', service_name: server.serviceName };
  } else if (server.network === 'httpupgrade') {
    const transport: Record<string, unknown> = { type: 'httpupgrade', path: server.path || '/' };
    if (server.hostHeader) transport.host = server.hostHeader;
    outbound.transport = transport;
  }
  outbound.packet_encoding = 'xudp';
  return outbound;
}

// ---------------------------------------------------------------- mihomo

/**
 * Clash.Meta/mihomo configuration (wiki.metacubex.one): `vless` proxies, a `url-test` group
 * across them, a `select` group defaulting to it, and a final MATCH rule to the select group.
 */
export function renderClash(all: readonly FeedServer[]): string {
  const servers = all.filter((server) => carries('clash', server));
  const names = servers.map((server) => server.name);
  const config = {
    'mixed-port': 7890,
    'allow-lan': false,
    mode: 'rule',
    'log-level': 'warning',
    ipv6: true,
    proxies: servers.map(clashProxy),
    'proxy-groups': [
      {
        name: SELECT_GROUP,
        type: 'select',
        proxies: [AUTO_GROUP, ...names],
      },
      {
        name: AUTO_GROUP,
        type: 'url-test',
        proxies: names.length > 0 ? names : ['DIRECT'],
        url: PROBE_URL,
        interval: 300,
        tolerance: 50,
      },
    ],
    rules: [`MATCH,${SELECT_GROUP}`],
  };
  return stringify(config, { lineWidth: 0 });
}

function clashProxy(server: FeedServer): Record<string, unknown> {
  const proxy: Record<string, unknown> = {
    name: server.name,
    type: 'vless',
    server: server.host,
    port: server.port,
    uuid: server.uuid,
    network: server.network,
    udp: true,
    tls: server.security !== 'none',
  };
  if (server.flow) proxy.flow = server.flow;
  if (server.security !== 'none') {
    if (server.sni) proxy.servername = server.sni;
    if (server.alpn.length > 0) proxy.alpn = server.alpn;
    const fingerprint = server.fp || (server.security === 'reality' ? 'chrome' : '');
    if (fingerprint) proxy['client-fingerprint'] = fingerprint;
    // mihomo pins the certificate by its SHA-256 (hex) instead of checking a CA chain.
    if (server.pin) proxy.fingerprint = server.pin;
    if (server.security === 'reality') {
      proxy['reality-opts'] = { 'public-key': server.pbk, 'short-id': server.sid };
    }
  }
  if (server.network === 'ws') {
    const ws: Record<string, unknown> = { path: server.path || '/' };
    if (server.hostHeader) ws.headers = { Host: server.hostHeader };
    proxy['ws-opts'] = ws;
  } else if (server.network === 'grpc') {
    proxy['grpc-opts'] = { 'grpc-service-name': server.serviceName };
  }
  return proxy;
}

// ---------------------------------------------------------------- Xray / v2ray

/**
 * Xray-core configuration (xtls.github.io/config): a `vless` outbound per server, tagged
 * `proxy-<n>`, and a balancer over them that a routing rule sends everything to.
 *
 * - `xray`: the balancer's `leastPing` strategy with an observatory probing every server, and
 *   REALITY, flows and gRPC as Xray has them.
 * - `v2ray`: what v2ray 4.34 (Debian's) accepts: no observatory (4.38+), a `random` balancer
 *   (the only strategy it has), and only the servers it can carry (no REALITY, no flow, no
 *   gRPC, which came in 4.36); the others are left out.
 */
export function renderXray(
  servers: readonly FeedServer[],
  options: { core: 'xray' | 'v2ray'; remarks: string },
): string {
  const carried = servers.filter((server) => carries(options.core, server));
  const outbounds = carried.map((server, index) => xrayOutbound(server, index + 1, options.core));
  const balancer: Record<string, unknown> = { tag: 'best', selector: ['proxy-'] };
  if (options.core === 'xray') balancer.strategy = { type: 'leastPing' };
  const config: Record<string, unknown> = {
    remarks: options.remarks,
    log: { loglevel: 'warning' },
    inbounds: [
      {
        tag: 'socks',
        listen: '127.0.0.1',
        port: 10808,
        protocol: 'socks',
        settings: { auth: 'noauth', udp: true },
        sniffing: { enabled: true, destOverride: ['http', 'tls'] },
      },
      { tag: 'http', listen: '127.0.0.1', port: 10809, protocol: 'http' },
    ],
    outbounds: [
      ...outbounds,
      { tag: 'direct', protocol: 'freedom' },
      { tag: 'block', protocol: 'blackhole' },
    ],
    routing: {
      domainStrategy: 'AsIs',
      balancers: outbounds.length > 0 ? [balancer] : [],
      rules:
        outbounds.length > 0
          ? [{ type: 'field', network: 'tcp,udp', balancerTag: 'best' }]
          : [{ type: 'field', network: 'tcp,udp', outboundTag: 'block' }],
    },
  };
  if (options.core === 'xray' && outbounds.length > 0) {
    config.observatory = {
      subjectSelector: ['proxy-'],
      probeURL: PROBE_URL,
      probeInterval: '1m',
      enableConcurrency: true,
    };
  }
  return JSON.stringify(config, null, 2) + '\n';
}

/** What v2ray 4.34 can dial: VLESS without flow over tcp or ws, plain or TLS. */
export function v2rayCarries(server: FeedServer): boolean {
  return (
    ['none', 'tls'].includes(server.security) &&
    !server.flow &&
    ['tcp', 'ws'].includes(server.network)
  );
}

function xrayOutbound(
  server: FeedServer,
  index: number,
  core: 'xray' | 'v2ray',
): Record<string, unknown> {
  const user: Record<string, unknown> = { id: server.uuid, encryption: 'none' };
  if (server.flow) user.flow = server.flow;
  const stream: Record<string, unknown> = { network: server.network, security: server.security };
  if (server.security === 'tls') {
    const tls: Record<string, unknown> = {};
    if (server.sni) tls.serverName = server.sni;
    if (server.alpn.length > 0) tls.alpn = server.alpn;
    if (server.fp && core === 'xray') tls.fingerprint = server.fp;
    if (server.pin && core === 'xray') {
      // Xray 26.1+: the leaf's SHA-256, checked instead of a CA chain (the link's `pcs`).
      tls.pinnedPeerCertSha256 = server.pin;
    } else if (server.pin) {
      // v2ray 4.34 cannot pin a hash: it trusts the certificate itself and nothing else.
      tls.disableSystemRoot = true;
      tls.certificates = [{ usage: 'verify', certificate: pemLines(server.certificatePem) }];
    }
    stream.tlsSettings = tls;
  } else if (server.security === 'reality') {
    stream.realitySettings = {
      serverName: server.sni,
      fingerprint: server.fp || 'chrome',
      publicKey: server.pbk,
      shortId: server.sid,
      spiderX: '/',
    };
  }
  if (server.network === 'ws') {
    const ws: Record<string, unknown> = { path: server.path || '/' };
    if (server.hostHeader) ws.headers = { Host: server.hostHeader };
    stream.wsSettings = ws;
  } else if (server.network === 'grpc') {
    stream.grpcSettings = { serviceName: server.serviceName, multiMode: false };
  } else if (server.network === 'httpupgrade') {
    const upgrade: Record<string, unknown> = { path: server.path || '/' };
    if (server.hostHeader) upgrade.host = server.hostHeader;
    stream.httpupgradeSettings = upgrade;
  }
  return {
    tag: `proxy-${index}`,
    protocol: 'vless',
    settings: { vnext: [{ address: server.host, port: server.port, users: [user] }] },
    streamSettings: stream,
  };
}

/** A PEM as v2ray's `certificate` array wants it: one string per line, without blanks. */
function pemLines(pem: string): string[] {
  return pem.split(/\r?\n/).filter((line) => line.length > 0);
}
