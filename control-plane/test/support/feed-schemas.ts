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

const singBoxTls = z.strictObject({
  enabled: z.literal(true),
  server_name: z.string().optional(),
  alpn: z.array(nonEmpty).optional(),
  utls: z.strictObject({ enabled: z.literal(true), fingerprint: nonEmpty }).optional(),
  reality: z
    .strictObject({ enabled: z.literal(true), public_key: nonEmpty, short_id: z.string() })
    .optional(),
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
]);
export const singBoxConfig = z
  .strictObject({
    log: z.strictObject({ level: z.enum(['trace', 'debug', 'info', 'warn', 'error']) }),
    inbounds: z.array(
      z.discriminatedUnion('type', [
        z.strictObject({
          type: z.literal('tun'),
          tag: nonEmpty,
          address: z.array(z.string().regex(/^[0-9a-f.:]+\/\d+$/)).min(1),
          auto_route: z.boolean(),
          strict_route: z.boolean(),
        }),
        z.strictObject({
          type: z.literal('mixed'),
          tag: nonEmpty,
          listen: nonEmpty,
          listen_port: port,
        }),
      ]),
    ),
    outbounds: z.array(singBoxOutbound),
    route: z.strictObject({
      rules: z.array(
        z.union([
          z.strictObject({ action: z.literal('sniff') }),
          z.strictObject({ protocol: z.literal('dns'), action: z.literal('hijack-dns') }),
        ]),
      ),
      final: nonEmpty,
      auto_detect_interface: z.boolean(),
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
    for (const ref of [...refs, config.route.final]) {
      if (!known.has(ref)) ctx.addIssue({ code: 'custom', message: `unknown outbound ${ref}` });
    }
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
  'ws-opts': z
    .strictObject({
      path: z.string().startsWith('/'),
      headers: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
  'grpc-opts': z.strictObject({ 'grpc-service-name': z.string() }).optional(),
});
export const clashConfig = z
  .strictObject({
    'mixed-port': port,
    'allow-lan': z.boolean(),
    mode: z.enum(['rule', 'global', 'direct']),
    'log-level': z.enum(['silent', 'error', 'warning', 'info', 'debug']),
    ipv6: z.boolean(),
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
  });
