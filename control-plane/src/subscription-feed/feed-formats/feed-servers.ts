import { parseVlessLink, type VlessLink } from '@scn/proto';
import type { ClientApp } from './client-app';

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
export function carries(
  format: keyof typeof NETWORKS | 'v2ray',
  server: FeedServer,
  /** Xray: whether the app's core reads `pinnedPeerCertSha256` (client-app.ts). */
  readsPin = false,
): boolean {
  if (!['none', 'tls', 'reality'].includes(server.security)) return false;
  if (server.security === 'reality' && !server.pbk) return false;
  if (server.pin) {
    // A pinned self-signed certificate: a pin this product does not write cannot be honoured.
    // sing-box, v2ray and the Xray cores that do not read the pin trust the certificate
    // itself, so they need the PEM; only mihomo and the pin-reading Xray cores do without.
    if (!PIN.test(server.pin)) return false;
    const byHash = format === 'clash' || (format === 'xray' && readsPin);
    if (!byHash && !server.certificatePem) return false;
  }
  if (format === 'v2ray') return v2rayCarries(server);
  return (NETWORKS[format] as readonly string[]).includes(server.network);
}

/** What v2ray 4.34 can dial: VLESS without flow over tcp or ws, plain or TLS. */
export function v2rayCarries(server: FeedServer): boolean {
  return (
    ['none', 'tls'].includes(server.security) &&
    !server.flow &&
    ['tcp', 'ws'].includes(server.network)
  );
}

/** What a renderer needs to know besides the servers. */
export interface RenderOptions {
  /** The app asking (client-app.ts): its version decides the syntax and how TLS is trusted. */
  client: ClientApp | null;
  /**
   * FakeIP (`?fakeip=1`): the app answers DNS with addresses from a reserved range and sends the
   * name itself through the tunnel. Off by default: real answers, fetched through the tunnel.
   */
  fakeIp: boolean;
}

export const DEFAULT_RENDER_OPTIONS: RenderOptions = { client: null, fakeIp: false };

/**
 * The resolvers the apps' DNS goes to, always through the tunnel (docs/operators.md, "DNS").
 * The servers' own names are resolved by the device's resolver, directly: the tunnel cannot
 * carry the lookup that finds the tunnel's far end.
 */
export const REMOTE_DNS = ['1.1.1.1', '8.8.8.8'] as const;
