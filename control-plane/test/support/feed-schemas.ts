import { z } from 'zod';

/**
 * Schemas of the subscription formats, written from the formats' documentation, strict (an
 * unknown field fails, as sing-box itself refuses one), covering the fields the feed writes.
 *
 * sing-box: sing-box.sagernet.org/configuration/outbound/{vless,urltest,selector,direct},
 * shared/{tls,v2ray-transport}, inbound/{tun,mixed}, route/ (1.11 rule actions).
 * mihomo: wiki.metacubex.one/config/proxies/vless, proxy-groups/{select,url-test}, rules.
 */
const port = z.number().int().min(1).max(65535);
const nonEmpty = z.string().min(1);
/** One PEM certificate. */
const pem = z
  .string()
  .regex(/^-----BEGIN CERTIFICATE-----\r?\n[A-Za-z0-9+/=\r\n]+-----END CERTIFICATE-----\r?\n?$/);
/** A SHA-256 as hex (mihomo `fingerprint`, Xray `pinnedPeerCertSha256`). */
const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

const singBoxTls = z.strictObject({
  enabled: z.literal(true),
  server_name: z.string().optional(),
  alpn: z.array(nonEmpty).optional(),
  utls: z.strictObject({ enabled: z.literal(true), fingerprint: nonEmpty }).optional(),
  reality: z
    .strictObject({ enabled: z.literal(true), public_key: nonEmpty, short_id: z.string() })
    .optional(),
  // shared/tls: `certificate`, the PEM trusted instead of the system roots (string or lines).
  certificate: z.union([pem, z.array(z.string())]).optional(),
});
const singBoxTransport = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('ws'),
    path: z.string().startsWith('/'),
    headers: z.record(z.string(), z.string()).optional(),
  }),
  z.strictObject({ type: z.literal('grpc'), service_name: z.string() }),
  z.strictObject({ type: z.literal('httpupgrade'), path: z.string(), host: z.string().optional() }),
]);
const singBoxOutbound = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('vless'),
    tag: nonEmpty,
    server: nonEmpty,
    server_port: port,
    uuid: z.uuid(),
    flow: z.literal('xtls-rprx-vision').optional(),
    tls: singBoxTls.optional(),
    transport: singBoxTransport.optional(),
    packet_encoding: z.enum(['', 'packetaddr', 'xudp']).optional(),
  }),
  z.strictObject({
    type: z.literal('urltest'),
    tag: nonEmpty,
    outbounds: z.array(nonEmpty).min(1),
    url: z.url(),
    interval: z.string().regex(/^\d+[smh]$/),
    tolerance: z.number().int().min(0),
  }),
  z.strictObject({
    type: z.literal('selector'),
    tag: nonEmpty,
    outbounds: z.array(nonEmpty).min(1),
    default: nonEmpty,
  }),
  z.strictObject({ type: z.literal('direct'), tag: nonEmpty }),
  // Before 1.11 (removed in 1.13): the outbound a `protocol: dns` rule sends DNS to.
  z.strictObject({ type: z.literal('dns'), tag: nonEmpty }),
]);
const cidr = z.string().regex(/^[0-9a-f.:]+\/\d+$/);
const queryTypes = z.array(z.enum(['A', 'AAAA'])).min(1);
/** dns/server (1.12+ typed servers) and dns/server/legacy (before 1.12, gone in 1.14). */
const singBoxDnsServer = z.union([
  z.strictObject({
    type: z.enum(['udp', 'tcp', 'tls', 'https']),
    tag: nonEmpty,
    server: nonEmpty,
    detour: nonEmpty.optional(),
  }),
  z.strictObject({ type: z.literal('local'), tag: nonEmpty }),
  z.strictObject({
    type: z.literal('fakeip'),
    tag: nonEmpty,
    inet4_range: cidr,
    inet6_range: cidr,
  }),
  z.strictObject({
    tag: nonEmpty,
    address: z.union([z.enum(['local', 'fakeip']), z.string().regex(/^(https|tls|tcp|udp):\/\//)]),
    detour: nonEmpty.optional(),
  }),
]);
const singBoxDns = z.strictObject({
  servers: z.array(singBoxDnsServer).min(1),
  rules: z.array(
    z.union([
      z.strictObject({ outbound: z.literal('any'), server: nonEmpty }),
      z.strictObject({ query_type: queryTypes, server: nonEmpty }),
    ]),
  ),
  final: nonEmpty,
  strategy: z.enum(['prefer_ipv4', 'prefer_ipv6', 'ipv4_only', 'ipv6_only']),
  fakeip: z
    .strictObject({ enabled: z.literal(true), inet4_range: cidr, inet6_range: cidr })
    .optional(),
});
export const singBoxConfig = z
  .strictObject({
    log: z.strictObject({ level: z.enum(['trace', 'debug', 'info', 'warn', 'error']) }),
    dns: singBoxDns,
    inbounds: z.array(
      z.discriminatedUnion('type', [
        z.strictObject({
          type: z.literal('tun'),
          tag: nonEmpty,
          // `inet4_address` before 1.10.
          address: z.array(cidr).min(1).optional(),
          inet4_address: z.array(cidr).min(1).optional(),
          auto_route: z.boolean(),
          strict_route: z.boolean(),
          // Inbound sniffing before 1.11 (the `sniff` rule action since).
          sniff: z.literal(true).optional(),
        }),
        z.strictObject({
          type: z.literal('mixed'),
          tag: nonEmpty,
          listen: nonEmpty,
          listen_port: port,
          sniff: z.literal(true).optional(),
        }),
      ]),
    ),
    outbounds: z.array(singBoxOutbound),
    route: z.strictObject({
      rules: z.array(
        z.union([
          z.strictObject({ action: z.literal('sniff') }),
          z.strictObject({ protocol: z.literal('dns'), action: z.literal('hijack-dns') }),
          z.strictObject({ protocol: z.literal('dns'), outbound: nonEmpty }),
        ]),
      ),
      final: nonEmpty,
      auto_detect_interface: z.boolean(),
      default_domain_resolver: nonEmpty.optional(),
    }),
  })
  .superRefine((config, ctx) => {
    // Every tag is unique and every reference names an outbound that exists.
    const tags = config.outbounds.map((outbound) => outbound.tag);
    if (new Set(tags).size !== tags.length) ctx.addIssue({ code: 'custom', message: 'dup tag' });
    const known = new Set(tags);
    const refs = config.outbounds.flatMap((outbound) =>
      'outbounds' in outbound ? outbound.outbounds : [],
    );
    const detours = config.dns.servers.flatMap((server) =>
      'detour' in server && server.detour ? [server.detour] : [],
    );
    const ruleOutbounds = config.route.rules.flatMap((rule) =>
      'outbound' in rule ? [rule.outbound] : [],
    );
    for (const ref of [...refs, ...detours, ...ruleOutbounds, config.route.final]) {
      if (!known.has(ref)) ctx.addIssue({ code: 'custom', message: `unknown outbound ${ref}` });
    }
    // 1.12+ refuses a typed DNS server that detours to an empty direct outbound.
    const direct = new Set(config.outbounds.filter((o) => o.type === 'direct').map((o) => o.tag));
    for (const server of config.dns.servers) {
      if ('type' in server && 'detour' in server && server.detour && direct.has(server.detour))
        ctx.addIssue({ code: 'custom', message: 'detour to an empty direct outbound' });
    }
    // Every DNS server a rule, the final or the route names exists.
    const servers = new Set(config.dns.servers.map((server) => server.tag));
    const serverRefs = [
      ...config.dns.rules.map((rule) => rule.server),
      config.dns.final,
      ...(config.route.default_domain_resolver ? [config.route.default_domain_resolver] : []),
    ];
    for (const ref of serverRefs) {
      if (!servers.has(ref)) ctx.addIssue({ code: 'custom', message: `unknown DNS server ${ref}` });
    }
    const tun = config.inbounds.find((inbound) => inbound.type === 'tun');
    if (tun && 'address' in tun === 'inet4_address' in tun)
      ctx.addIssue({ code: 'custom', message: 'tun needs exactly one of address, inet4_address' });
  });

const clashProxy = z.strictObject({
  name: nonEmpty,
  type: z.literal('vless'),
  server: nonEmpty,
  port,
  uuid: z.uuid(),
  network: z.enum(['tcp', 'ws', 'grpc', 'http', 'h2']),
  udp: z.boolean(),
  tls: z.boolean(),
  flow: z.literal('xtls-rprx-vision').optional(),
  servername: z.string().optional(),
  alpn: z.array(nonEmpty).optional(),
  'client-fingerprint': z
    .enum(['chrome', 'firefox', 'safari', 'ios', 'android', 'edge', '360', 'qq', 'random'])
    .optional(),
  'reality-opts': z.strictObject({ 'public-key': nonEmpty, 'short-id': z.string() }).optional(),
  // config/proxies/tls: the server certificate's SHA-256, pinned instead of a CA chain.
  fingerprint: sha256Hex.optional(),
  'ws-opts': z
    .strictObject({
      path: z.string().startsWith('/'),
      headers: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
  'grpc-opts': z.strictObject({ 'grpc-service-name': z.string() }).optional(),
});
/** config/dns: the nameservers as mihomo parses them (IP, scheme://, or `system`). */
const clashNameserver = z.union([
  z.literal('system'),
  z.string().regex(/^(https|tls|tcp|udp|quic):\/\/[^\s#]+$/),
]);
const clashDns = z.strictObject({
  enable: z.literal(true),
  ipv6: z.boolean(),
  'enhanced-mode': z.enum(['redir-host', 'fake-ip']),
  'fake-ip-range': cidr.optional(),
  'respect-rules': z.boolean(),
  nameserver: z.array(clashNameserver).min(1),
  'proxy-server-nameserver': z.array(clashNameserver).min(1),
});
export const clashConfig = z
  .strictObject({
    'mixed-port': port,
    'allow-lan': z.boolean(),
    mode: z.enum(['rule', 'global', 'direct']),
    'log-level': z.enum(['silent', 'error', 'warning', 'info', 'debug']),
    ipv6: z.boolean(),
    dns: clashDns,
    proxies: z.array(clashProxy),
    'proxy-groups': z.array(
      z.discriminatedUnion('type', [
        z.strictObject({ name: nonEmpty, type: z.literal('select'), proxies: z.array(nonEmpty) }),
        z.strictObject({
          name: nonEmpty,
          type: z.literal('url-test'),
          proxies: z.array(nonEmpty).min(1),
          url: z.url(),
          interval: z.number().int().positive(),
          tolerance: z.number().int().min(0),
        }),
      ]),
    ),
    rules: z.array(z.string().regex(/^[A-Z-]+(,[^,]+)*$/)).min(1),
  })
  .superRefine((config, ctx) => {
    const names = [...config.proxies, ...config['proxy-groups']].map((entry) => entry.name);
    if (new Set(names).size !== names.length) ctx.addIssue({ code: 'custom', message: 'dup' });
    const known = new Set([...names, 'DIRECT', 'REJECT']);
    const refs = config['proxy-groups'].flatMap((group) => group.proxies);
    const last = config.rules.at(-1)!.split(',');
    if (last[0] !== 'MATCH') ctx.addIssue({ code: 'custom', message: 'no final MATCH' });
    for (const ref of [...refs, last[1]!]) {
      if (!known.has(ref)) ctx.addIssue({ code: 'custom', message: `unknown proxy ${ref}` });
    }
    // respect-rules needs a proxy-server-nameserver (mihomo refuses the config otherwise).
    if (config.dns['respect-rules'] && config.dns['proxy-server-nameserver'].length === 0)
      ctx.addIssue({ code: 'custom', message: 'respect-rules without proxy-server-nameserver' });
    if ((config.dns['enhanced-mode'] === 'fake-ip') !== 'fake-ip-range' in config.dns)
      ctx.addIssue({ code: 'custom', message: 'fake-ip-range only with fake-ip' });
  });

/**
 * Xray-core (xtls.github.io/config: outbounds/vless, transport, routing balancers, observatory),
 * for the outbounds and routing the feed writes. The v2ray variant is checked by the real
 * v2ray binary instead; Xray cannot run here.
 */
const xrayStream = z.strictObject({
  network: z.enum(['tcp', 'raw', 'ws', 'grpc', 'httpupgrade', 'xhttp', 'kcp']),
  security: z.enum(['none', 'tls', 'reality']),
  tlsSettings: z
    .strictObject({
      serverName: z.string().optional(),
      // Never true: certificates are checked (a CA chain, a pin or the certificate itself).
      allowInsecure: z.literal(false).optional(),
      alpn: z.array(nonEmpty).optional(),
      fingerprint: nonEmpty.optional(),
      // Xray 26.1+ (transport/tls): the leaf certificate's SHA-256, hex.
      pinnedPeerCertSha256: sha256Hex.optional(),
      // v2ray 4.x (transport tls): trust only the given certificate.
      disableSystemRoot: z.literal(true).optional(),
      certificates: z
        .array(z.strictObject({ usage: z.literal('verify'), certificate: z.array(nonEmpty) }))
        .optional(),
    })
    .optional(),
  realitySettings: z
    .strictObject({
      serverName: nonEmpty,
      fingerprint: nonEmpty,
      publicKey: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
      shortId: z.string().regex(/^([0-9a-f]{2}){0,8}$/),
      spiderX: z.string().startsWith('/'),
    })
    .optional(),
  wsSettings: z
    .strictObject({
      path: z.string().startsWith('/'),
      // Xray: `host` (its `headers.Host` is deprecated); v2ray 4.34 has only the header.
      host: z.string().optional(),
      headers: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
  grpcSettings: z.strictObject({ serviceName: z.string(), multiMode: z.boolean() }).optional(),
  httpupgradeSettings: z
    .strictObject({ path: z.string().startsWith('/'), host: z.string().optional() })
    .optional(),
});
const xrayOutbound = z.union([
  z.strictObject({
    tag: z.string().regex(/^proxy-\d+$/),
    protocol: z.literal('vless'),
    settings: z.strictObject({
      vnext: z
        .array(
          z.strictObject({
            address: nonEmpty,
            port,
            users: z
              .array(
                z.strictObject({
                  id: z.uuid(),
                  encryption: z.literal('none'),
                  flow: z.literal('xtls-rprx-vision').optional(),
                }),
              )
              .length(1),
          }),
        )
        .length(1),
    }),
    streamSettings: xrayStream,
  }),
  z.strictObject({ tag: z.literal('direct'), protocol: z.literal('freedom') }),
  z.strictObject({ tag: z.literal('block'), protocol: z.literal('blackhole') }),
  // The apps' DNS, answered by the built-in DNS (proxy/dns).
  z.strictObject({
    tag: z.literal('dns-out'),
    protocol: z.literal('dns'),
    proxySettings: z.strictObject({ tag: z.string().regex(/^proxy-\d+$/) }).optional(),
  }),
]);
export const xrayConfig = z
  .strictObject({
    remarks: z.string(),
    log: z.strictObject({ loglevel: z.enum(['debug', 'info', 'warning', 'error', 'none']) }),
    inbounds: z.array(z.looseObject({ tag: nonEmpty, protocol: z.enum(['socks', 'http']) })),
    dns: z.strictObject({
      tag: nonEmpty,
      servers: z.array(z.ipv4()).min(1),
    }),
    outbounds: z.array(xrayOutbound),
    routing: z.strictObject({
      domainStrategy: z.enum(['AsIs', 'IPIfNonMatch', 'IPOnDemand']),
      balancers: z.array(
        z.strictObject({
          tag: nonEmpty,
          selector: z.array(nonEmpty).min(1),
          strategy: z
            .strictObject({ type: z.enum(['random', 'roundRobin', 'leastPing', 'leastLoad']) })
            .optional(),
        }),
      ),
      rules: z.array(
        z.strictObject({
          type: z.literal('field'),
          inboundTag: z.array(nonEmpty).min(1).optional(),
          network: z.string().optional(),
          port: z.string().regex(/^\d+$/).optional(),
          balancerTag: nonEmpty.optional(),
          outboundTag: nonEmpty.optional(),
        }),
      ),
    }),
    observatory: z
      .strictObject({
        subjectSelector: z.array(nonEmpty).min(1),
        probeURL: z.url(),
        probeInterval: z.string().regex(/^\d+[smh]$/),
        enableConcurrency: z.boolean(),
      })
      .optional(),
  })
  .superRefine((config, ctx) => {
    const balancers = new Set(config.routing.balancers.map((balancer) => balancer.tag));
    const tags = new Set(config.outbounds.map((outbound) => outbound.tag));
    for (const outbound of config.outbounds) {
      if (
        'proxySettings' in outbound &&
        outbound.proxySettings &&
        !tags.has(outbound.proxySettings.tag)
      )
        ctx.addIssue({ code: 'custom', message: `unknown proxy ${outbound.proxySettings.tag}` });
    }
    const inbounds = new Set([...config.inbounds.map((inbound) => inbound.tag), config.dns.tag]);
    for (const rule of config.routing.rules) {
      if (!rule.balancerTag === !rule.outboundTag)
        ctx.addIssue({ code: 'custom', message: 'a rule needs one balancerTag or outboundTag' });
      for (const tag of rule.inboundTag ?? [])
        if (!inbounds.has(tag)) ctx.addIssue({ code: 'custom', message: `unknown inbound ${tag}` });
      if (rule.balancerTag && !balancers.has(rule.balancerTag))
        ctx.addIssue({ code: 'custom', message: `unknown balancer ${rule.balancerTag}` });
      if (rule.outboundTag && !tags.has(rule.outboundTag))
        ctx.addIssue({ code: 'custom', message: `unknown outbound ${rule.outboundTag}` });
    }
    // leastPing needs the observatory's measurements.
    if (
      config.routing.balancers.some((b) => b.strategy?.type === 'leastPing') &&
      !config.observatory
    )
      ctx.addIssue({ code: 'custom', message: 'leastPing without an observatory' });
  });
