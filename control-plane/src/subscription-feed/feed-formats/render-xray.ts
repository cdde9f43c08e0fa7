import { type ClientApp, xrayReadsPin } from './client-app';
import { carries, type FeedServer, PROBE_URL, REMOTE_DNS } from './feed-servers';

/**
 * Xray-core configuration (xtls.github.io/config): a `vless` outbound per server, tagged
 * `proxy-<n>`, and a balancer over them that a routing rule sends everything to.
 *
 * - `xray`: the balancer's `leastPing` strategy with an observatory probing every server, and
 *   REALITY, flows and gRPC as Xray has them.
 * - `v2ray`: what v2ray 4.34 (Debian's) accepts: no observatory (4.38+), a `random` balancer
 *   (the only strategy it has), and only the servers it can carry (no REALITY, no flow, no
 *   gRPC, which came in 4.36); the others are left out.
 *
 * DNS: the built-in DNS (tagged `dns-internal`) asks public resolvers through the balancer, and
 * the apps' own queries (UDP to port 53, which v2rayNG's VPN hands to the socks inbound) go to
 * the `dns` outbound, which answers them from the built-in DNS: no query leaves outside the
 * tunnel. The servers' own names are resolved by the device (the core's default dialer).
 *
 * A pinned self-signed certificate: `pinnedPeerCertSha256` only for the apps whose core reads it
 * (client-app.ts `xrayReadsPin`), the certificate itself with `disableSystemRoot` for the others.
 */
export function renderXray(
  servers: readonly FeedServer[],
  options: { core: 'xray' | 'v2ray'; remarks: string; client?: ClientApp | null },
): string {
  const core = options.core;
  const readsPin = core === 'xray' && xrayReadsPin(options.client ?? null);
  const carried = servers.filter((server) => carries(core, server, readsPin));
  const outbounds = carried.map((server, index) => xrayOutbound(server, index + 1, core, readsPin));
  const balancer: Record<string, unknown> = { tag: 'best', selector: ['proxy-'] };
  if (core === 'xray') balancer.strategy = { type: 'leastPing' };
  const toTunnel = outbounds.length > 0 ? { balancerTag: 'best' } : { outboundTag: 'block' };
  // v2ray 4.34's dns outbound forwards queries other than A/AAAA to their destination itself:
  // through the first server, not around the tunnel. Xray drops or refuses them (its
  // `nonIPQuery` default).
  const dnsOut: Record<string, unknown> = { tag: 'dns-out', protocol: 'dns' };
  if (core === 'v2ray' && outbounds.length > 0) dnsOut.proxySettings = { tag: 'proxy-1' };
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
    dns: { tag: 'dns-internal', servers: [...REMOTE_DNS] },
    outbounds: [
      ...outbounds,
      { tag: 'direct', protocol: 'freedom' },
      { tag: 'block', protocol: 'blackhole' },
      dnsOut,
    ],
    routing: {
      domainStrategy: 'AsIs',
      balancers: outbounds.length > 0 ? [balancer] : [],
      rules: [
        { type: 'field', inboundTag: ['dns-internal'], ...toTunnel },
        { type: 'field', network: 'udp', port: '53', outboundTag: 'dns-out' },
        { type: 'field', network: 'tcp,udp', ...toTunnel },
      ],
    },
  };
  if (core === 'xray' && outbounds.length > 0) {
    config.observatory = {
      subjectSelector: ['proxy-'],
      probeURL: PROBE_URL,
      probeInterval: '1m',
      enableConcurrency: true,
    };
  }
  return JSON.stringify(config, null, 2) + '\n';
}

function xrayOutbound(
  server: FeedServer,
  index: number,
  core: 'xray' | 'v2ray',
  readsPin: boolean,
): Record<string, unknown> {
  const user: Record<string, unknown> = { id: server.uuid, encryption: 'none' };
  if (server.flow) user.flow = server.flow;
  const stream: Record<string, unknown> = { network: server.network, security: server.security };
  if (server.security === 'tls') {
    const tls: Record<string, unknown> = {};
    if (server.sni) tls.serverName = server.sni;
    if (server.alpn.length > 0) tls.alpn = server.alpn;
    if (server.fp && core === 'xray') tls.fingerprint = server.fp;
    if (server.pin && readsPin) {
      // Xray 26.1+ (v2rayNG 2.0.7+, v2rayN 7.17.1+): the leaf's SHA-256, checked instead of a CA
      // chain (the link's `pcs`).
      tls.pinnedPeerCertSha256 = server.pin;
    } else if (server.pin) {
      // Older Xray and v2ray 4.34 ignore a pin: they trust the certificate itself, and nothing
      // else (every version accepts this).
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
    // Xray has `host` (its `headers.Host` is deprecated); v2ray 4.34 has only the header.
    if (server.hostHeader && core === 'xray') ws.host = server.hostHeader;
    else if (server.hostHeader) ws.headers = { Host: server.hostHeader };
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
