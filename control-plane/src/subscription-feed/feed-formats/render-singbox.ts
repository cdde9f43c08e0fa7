import { type SingBoxSyntax, singBoxSyntax, singBoxTunAddressField } from './client-app';
import {
  AUTO_GROUP,
  carries,
  DEFAULT_RENDER_OPTIONS,
  type FeedServer,
  PROBE_URL,
  REMOTE_DNS,
  type RenderOptions,
  SELECT_GROUP,
} from './feed-servers';

/** Where FakeIP answers come from: inside the benchmarking range, clear of the tun address. */
export const SING_BOX_FAKEIP = { inet4: '198.19.0.0/16', inet6: 'fc00::/18' } as const;

/**
 * sing-box configuration (sing-box.sagernet.org/configuration): a `vless` outbound per server,
 * a `urltest` group across them, a `selector` defaulting to it, a tun inbound for the apps and a
 * local mixed proxy, a route whose final outbound is the selector, and DNS that leaves through
 * the selector (the servers' own names resolved by the device, directly). Written in the syntax
 * of the asking app's core (client-app.ts `singBoxSyntax`): rule actions from 1.11, typed DNS
 * servers from 1.12, the older inbound sniffing and `dns` outbound before 1.11.
 */
export function renderSingBox(
  all: readonly FeedServer[],
  options: RenderOptions = DEFAULT_RENDER_OPTIONS,
): string {
  const syntax = singBoxSyntax(options.client);
  const servers = all.filter((server) => carries('singbox', server));
  const tags = servers.map((server) => server.name);
  const legacy = syntax === 'legacy';
  // sing-box before 1.11 sniffs on the inbound (the `sniff` rule action came in 1.11).
  const sniff = legacy ? { sniff: true } : {};
  const config = {
    log: { level: 'warn' },
    dns: singBoxDns(syntax, options.fakeIp),
    inbounds: [
      {
        type: 'tun',
        tag: 'tun-in',
        // 198.18.0.0/15 is the benchmarking range (RFC 2544), unused on real networks.
        [singBoxTunAddressField(options.client)]: ['198.18.0.1/30'],
        auto_route: true,
        strict_route: true,
        ...sniff,
      },
      { type: 'mixed', tag: 'mixed-in', listen: '127.0.0.1', listen_port: 2080, ...sniff },
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
      ...(legacy ? [{ type: 'dns', tag: 'dns-out' }] : []),
    ],
    // The apps' DNS (the tun catches port 53) goes to the DNS module above, which asks its
    // remote server through the selector: sniffed as DNS, then hijacked (1.11+) or sent to the
    // `dns` outbound (before 1.11).
    route: {
      rules: legacy
        ? [{ protocol: 'dns', outbound: 'dns-out' }]
        : [{ action: 'sniff' }, { protocol: 'dns', action: 'hijack-dns' }],
      final: SELECT_GROUP,
      auto_detect_interface: true,
      // 1.12+: the servers' names (and any outbound's) are resolved by the local resolver.
      ...(syntax === '1.12' ? { default_domain_resolver: 'dns-local' } : {}),
    },
  };
  return JSON.stringify(config, null, 2) + '\n';
}

/**
 * `dns-remote` (DNS over HTTPS to a public resolver, dialled through the selector) answers
 * every query; `dns-local` (the device's own resolver, direct) only finds the servers' own
 * addresses, so the outbounds can dial before the tunnel exists. With FakeIP, A and AAAA
 * queries get a reserved address instead and the name travels through the tunnel.
 */
function singBoxDns(syntax: SingBoxSyntax, fakeIp: boolean): Record<string, unknown> {
  const [primary] = REMOTE_DNS;
  if (syntax === '1.12') {
    const servers: Record<string, unknown>[] = [
      { type: 'https', tag: 'dns-remote', server: primary, detour: SELECT_GROUP },
      { type: 'local', tag: 'dns-local' },
    ];
    if (fakeIp) {
      servers.push({
        type: 'fakeip',
        tag: 'dns-fake',
        inet4_range: SING_BOX_FAKEIP.inet4,
        inet6_range: SING_BOX_FAKEIP.inet6,
      });
    }
    return {
      servers,
      rules: fakeIp ? [{ query_type: ['A', 'AAAA'], server: 'dns-fake' }] : [],
      final: 'dns-remote',
      strategy: 'prefer_ipv4',
    };
  }
  // Before 1.12: servers by address; an `outbound: any` rule sends the lookups the outbounds
  // make for their servers' names to the local resolver. A legacy server without `detour` dials
  // through the default outbound (the selector), so the local one names `direct` (1.12 refuses
  // that as pointless; its typed servers dial directly by default).
  const servers: Record<string, unknown>[] = [
    { tag: 'dns-remote', address: `https://${primary}/dns-query`, detour: SELECT_GROUP },
    { tag: 'dns-local', address: 'local', detour: 'direct' },
  ];
  const rules: Record<string, unknown>[] = [{ outbound: 'any', server: 'dns-local' }];
  const dns: Record<string, unknown> = {
    servers,
    rules,
    final: 'dns-remote',
    strategy: 'prefer_ipv4',
  };
  if (fakeIp) {
    servers.push({ tag: 'dns-fake', address: 'fakeip' });
    rules.push({ query_type: ['A', 'AAAA'], server: 'dns-fake' });
    dns.fakeip = {
      enabled: true,
      inet4_range: SING_BOX_FAKEIP.inet4,
      inet6_range: SING_BOX_FAKEIP.inet6,
    };
  }
  return dns;
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
