import { stringify } from 'yaml';
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

/** mihomo's own default FakeIP range (wiki.metacubex.one/config/dns). */
export const CLASH_FAKEIP_RANGE = '198.18.0.1/16';

/**
 * Clash.Meta/mihomo configuration (wiki.metacubex.one): `vless` proxies, a `url-test` group
 * across them, a `select` group defaulting to it, a final MATCH rule to the select group, and
 * DNS that follows the rules (so through the select group) with the servers' own names resolved
 * by the device, directly.
 */
export function renderClash(
  all: readonly FeedServer[],
  options: RenderOptions = DEFAULT_RENDER_OPTIONS,
): string {
  const servers = all.filter((server) => carries('clash', server));
  const names = servers.map((server) => server.name);
  const config = {
    'mixed-port': 7890,
    'allow-lan': false,
    mode: 'rule',
    'log-level': 'warning',
    ipv6: true,
    dns: clashDns(options.fakeIp),
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

/**
 * `respect-rules`: the nameservers are reached the way the rules say (`MATCH,SCN`: through the
 * tunnel); `proxy-server-nameserver` (which respect-rules requires) resolves the servers' own
 * names with the device's resolver, directly. redir-host (real answers) by default; FakeIP on
 * request.
 */
function clashDns(fakeIp: boolean): Record<string, unknown> {
  return {
    enable: true,
    ipv6: true,
    'enhanced-mode': fakeIp ? 'fake-ip' : 'redir-host',
    ...(fakeIp ? { 'fake-ip-range': CLASH_FAKEIP_RANGE } : {}),
    'respect-rules': true,
    nameserver: REMOTE_DNS.map((address) => `https://${address}/dns-query`),
    'proxy-server-nameserver': ['system'],
  };
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
