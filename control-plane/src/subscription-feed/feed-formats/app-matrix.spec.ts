import { buildVlessLink } from '@scn/proto';
import { parse } from 'yaml';
import { clashConfig, singBoxConfig, xrayConfig } from '../../../test/support/feed-schemas';
import { itNeeding } from '../../../test/support/requirements';
import { selfSigned } from '../../../test/support/self-signed';
import { v2rayTest } from '../../../test/support/v2ray-test';
import { clientAppOf, singBoxSyntax, xrayReadsPin } from './client-app';
import { chooseFeedFormat, fakeIpOption } from './client-format';
import { feedContentDisposition, renderFeed } from './render-feed';
import { CLASH_FAKEIP_RANGE, REMOTE_DNS, SELECT_GROUP, SING_BOX_FAKEIP } from './renderers';

/**
 * docs/operators.md, "What each app gets": one row per app and version, rendered from the same
 * two servers, one with a pinned self-signed certificate (`pcs`) and one with a CA-issued
 * certificate (no pin).
 */
const UUID = '7d3c1a55-0c2e-4f38-9a1b-2f9e0b6c4d21';
const cert = selfSigned('node.example.net');
const PINNED = buildVlessLink({
  uuid: UUID,
  host: 'node.example.net',
  port: 24567,
  name: 'Pinned',
  params: {
    encryption: 'none',
    security: 'tls',
    sni: 'node.example.net',
    fp: 'chrome',
    type: 'ws',
    path: '/a1b2',
    host: 'node.example.net',
    pcs: cert.certificateSha256,
  },
});
const CA_ISSUED = buildVlessLink({
  uuid: UUID,
  host: 'ca.example.net',
  port: 443,
  name: 'CA',
  params: { encryption: 'none', security: 'tls', sni: 'ca.example.net', fp: 'chrome', type: 'tcp' },
});
const LINKS = [PINNED, CA_ISSUED];
const CERTIFICATES = new Map([[cert.certificateSha256, cert.certificatePem]]);
const itWithV2ray = itNeeding(['v2ray'], 'the app matrix checked by v2ray -test');

/** The feed as the app with this User-Agent gets it, without ?format=. */
function feedFor(agent: string, query?: string, fakeIp = false) {
  const choice = chooseFeedFormat(query, agent);
  if (!choice.ok) throw new Error(choice.problem);
  if (choice.format === 'html') throw new Error('html');
  const feed = renderFeed(choice.format, LINKS, 'SCN Subscription', CERTIFICATES, {
    client: choice.client,
    fakeIp,
  });
  return { format: choice.format, body: feed.body };
}

type Tls = Record<string, unknown>;

/** How each Xray outbound trusts its server: by the pin, by the certificate, or by the CA. */
function xrayTrust(body: string): Record<string, Tls> {
  const config = xrayConfig.parse(JSON.parse(body));
  return Object.fromEntries(
    config.outbounds.flatMap((outbound) =>
      'streamSettings' in outbound
        ? [[outbound.settings.vnext[0]!.address, outbound.streamSettings.tlsSettings ?? {}]]
        : [],
    ),
  );
}

const PIN_READERS = ['v2rayNG/2.0.7', 'v2rayNG/2.1.3', 'v2rayN/7.17.1', 'v2rayN/7.18.0'];
const OLDER_XRAY = ['v2rayNG/2.0.6', 'v2rayNG/1.8.29', 'v2rayN/7.17.0', 'v2rayN/6.40'];

describe('the app and version matrix', () => {
  it.each(PIN_READERS)('should pin the SHA-256 for %s, whose core reads it', (agent) => {
    const { format, body } = feedFor(agent);
    expect(format).toBe('xray');
    const trust = xrayTrust(body);
    expect(trust['node.example.net']).toEqual({
      serverName: 'node.example.net',
      fingerprint: 'chrome',
      pinnedPeerCertSha256: cert.certificateSha256,
    });
    expect(trust['ca.example.net']).toEqual({
      serverName: 'ca.example.net',
      fingerprint: 'chrome',
    });
  });

  it.each(OLDER_XRAY)(
    'should give %s the certificate itself with disableSystemRoot, never the pin it ignores',
    (agent) => {
      const { format, body } = feedFor(agent);
      expect(format).toBe('xray');
      const trust = xrayTrust(body);
      expect(trust['node.example.net']).toEqual({
        serverName: 'node.example.net',
        fingerprint: 'chrome',
        disableSystemRoot: true,
        certificates: [{ usage: 'verify', certificate: cert.certificatePem.trim().split('\n') }],
      });
      expect(trust['ca.example.net']).toEqual({
        serverName: 'ca.example.net',
        fingerprint: 'chrome',
      });
      expect(body).not.toContain('pinnedPeerCertSha256');
    },
  );

  it.each(['v2rayNG/1.8.28', 'v2rayN/6.39', 'curl/8.5.0', 'Streisand/1.6.41'])(
    'should give %s the share links, with the pin as pcs',
    (agent) => {
      const { format, body } = feedFor(agent);
      expect(format).toBe('base64');
      expect(Buffer.from(body, 'base64').toString('utf8')).toContain(
        `pcs=${cert.certificateSha256}`,
      );
    },
  );

  it.each([
    ['SFA/1.12.4 (612; sing-box 1.12.4)', '1.12'],
    ['SFI/1.13.0 (1; sing-box 1.13.0)', '1.12'],
    ['SFM/1.11.15 (1; sing-box 1.11.15)', '1.11'],
    ['SFA/1.10.7 (1; sing-box 1.10.7)', 'legacy'],
    ['SFT/1.9.3', 'legacy'],
    ['sing-box 1.10.1', 'legacy'],
    ['sing-box/1.12.0', '1.12'],
    ['HiddifyNext/2.5.7 (android) like ClashMeta v2ray sing-box', '1.12'],
    ['Karing/1.1.2.606 android', '1.12'],
  ])('should trust the certificate itself in sing-box for %s (syntax %s)', (agent, syntax) => {
    expect(singBoxSyntax(clientAppOf(agent))).toBe(syntax);
    const { format, body } = feedFor(agent);
    expect(format).toBe('singbox');
    const config = singBoxConfig.parse(JSON.parse(body));
    const byTag = new Map(config.outbounds.map((outbound) => [outbound.tag, outbound]));
    expect(byTag.get('Pinned')).toMatchObject({ tls: { certificate: cert.certificatePem } });
    expect(byTag.get('CA')).toMatchObject({ tls: { server_name: 'ca.example.net' } });
    expect(byTag.get('CA')).not.toHaveProperty('tls.certificate');
  });

  it.each(['clash-verge/v2.2.3', 'mihomo/1.19.0', 'FlClash/v0.8.80 clash-verge Platform/android'])(
    'should pin the SHA-256 as mihomo fingerprint for %s',
    (agent) => {
      const { format, body } = feedFor(agent);
      expect(format).toBe('clash');
      const proxies = clashConfig.parse(parse(body)).proxies;
      expect(proxies.find((proxy) => proxy.name === 'Pinned')).toMatchObject({
        fingerprint: cert.certificateSha256,
      });
      expect(proxies.find((proxy) => proxy.name === 'CA')).not.toHaveProperty('fingerprint');
    },
  );

  it('should read the pin only from the apps that ship a core reading it', () => {
    expect(xrayReadsPin(null)).toBe(false);
    expect(xrayReadsPin(clientAppOf('v2rayNG'))).toBe(false);
    expect(xrayReadsPin(clientAppOf('v2rayNG/2.0.7'))).toBe(true);
    expect(xrayReadsPin(clientAppOf('v2rayNGX/9.0.0'))).toBe(false);
    expect(xrayReadsPin(clientAppOf('SFA/1.12.0'))).toBe(false);
  });

  it('should give ?format=xray without a known app the certificate, which every Xray reads', () => {
    const trust = xrayTrust(feedFor('curl/8.5.0', 'xray').body);
    expect(trust['node.example.net']).toMatchObject({ disableSystemRoot: true });
    expect(trust['node.example.net']).not.toHaveProperty('pinnedPeerCertSha256');
  });

  itWithV2ray('should write v2ray JSON that the real v2ray 4.34 loads, whichever app asks', () => {
    for (const agent of [...PIN_READERS, ...OLDER_XRAY, 'curl/8.5.0']) {
      const { body } = feedFor(agent, 'v2ray');
      const trust = xrayTrust(body);
      expect(trust['node.example.net']).toMatchObject({ disableSystemRoot: true });
      expect(v2rayTest(body)).toMatch(/Configuration OK/);
    }
  });
});

describe('sing-box syntax by version', () => {
  it('should write rule actions and typed DNS servers for 1.12 and later, no detour to direct', () => {
    const config = singBoxConfig.parse(JSON.parse(feedFor('SFA/1.12.4 (1; sing-box 1.12.4)').body));
    expect(config.route.rules).toEqual([
      { action: 'sniff' },
      { protocol: 'dns', action: 'hijack-dns' },
    ]);
    expect(config.route.default_domain_resolver).toBe('dns-local');
    expect(config.dns).toEqual({
      servers: [
        { type: 'https', tag: 'dns-remote', server: REMOTE_DNS[0], detour: SELECT_GROUP },
        { type: 'local', tag: 'dns-local' },
      ],
      rules: [],
      final: 'dns-remote',
      strategy: 'prefer_ipv4',
    });
    expect(config.outbounds.some((outbound) => outbound.type === 'dns')).toBe(false);
    expect(config.inbounds[0]).toMatchObject({ address: ['198.18.0.1/30'] });
    expect(config.inbounds[0]).not.toHaveProperty('sniff');
  });

  it('should write rule actions with DNS servers by address for 1.11', () => {
    const config = singBoxConfig.parse(JSON.parse(feedFor('SFM/1.11.4 (1; sing-box 1.11.4)').body));
    expect(config.route.rules).toContainEqual({ protocol: 'dns', action: 'hijack-dns' });
    expect(config.route).not.toHaveProperty('default_domain_resolver');
    expect(config.dns.servers).toEqual([
      { tag: 'dns-remote', address: `https://${REMOTE_DNS[0]}/dns-query`, detour: SELECT_GROUP },
      { tag: 'dns-local', address: 'local', detour: 'direct' },
    ]);
    // The servers' own names: the device's resolver, directly.
    expect(config.dns.rules).toEqual([{ outbound: 'any', server: 'dns-local' }]);
  });

  it.each([
    ['SFA/1.10.7 (1; sing-box 1.10.7)', 'address'],
    ['sing-box 1.9.0', 'inet4_address'],
  ])(
    'should write no rule action for %s, with inbound sniffing and a dns outbound',
    (agent, field) => {
      const body = feedFor(agent).body;
      expect(body).not.toContain('"action"');
      const config = singBoxConfig.parse(JSON.parse(body));
      expect(config.route.rules).toEqual([{ protocol: 'dns', outbound: 'dns-out' }]);
      expect(config.outbounds).toContainEqual({ type: 'dns', tag: 'dns-out' });
      expect(config.inbounds.every((inbound) => inbound.sniff === true)).toBe(true);
      expect(config.inbounds[0]).toHaveProperty(field, ['198.18.0.1/30']);
      expect(config.dns.rules).toEqual([{ outbound: 'any', server: 'dns-local' }]);
      expect(config.dns.final).toBe('dns-remote');
    },
  );
});

describe('DNS through the tunnel in every format', () => {
  it('should send sing-box DNS through the selector, the servers resolved locally', () => {
    for (const agent of ['SFA/1.12.0', 'SFA/1.11.0', 'SFA/1.10.0']) {
      const config = singBoxConfig.parse(JSON.parse(feedFor(agent).body));
      const remote = config.dns.servers.find((server) => server.tag === config.dns.final);
      expect(remote).toMatchObject({ detour: SELECT_GROUP });
      // The only other resolver is the device's, for the outbounds' own server names.
      const others = config.dns.servers.filter((server) => server !== remote);
      expect(others).toEqual([expect.objectContaining({ tag: 'dns-local' })]);
      // And DNS from the apps reaches the DNS module (hijacked or via the dns outbound).
      expect(JSON.stringify(config.route.rules)).toMatch(/"protocol":"dns"/);
    }
  });

  it('should offer FakeIP in sing-box on request, off by default', () => {
    expect(feedFor('SFA/1.12.0').body).not.toContain('fakeip');
    const current = singBoxConfig.parse(JSON.parse(feedFor('SFA/1.12.0', undefined, true).body));
    expect(current.dns.servers).toContainEqual({
      type: 'fakeip',
      tag: 'dns-fake',
      inet4_range: SING_BOX_FAKEIP.inet4,
      inet6_range: SING_BOX_FAKEIP.inet6,
    });
    expect(current.dns.rules).toEqual([{ query_type: ['A', 'AAAA'], server: 'dns-fake' }]);
    const legacy = singBoxConfig.parse(JSON.parse(feedFor('SFA/1.10.0', undefined, true).body));
    expect(legacy.dns.fakeip).toEqual({
      enabled: true,
      inet4_range: SING_BOX_FAKEIP.inet4,
      inet6_range: SING_BOX_FAKEIP.inet6,
    });
    expect(legacy.dns.rules).toContainEqual({ query_type: ['A', 'AAAA'], server: 'dns-fake' });
  });

  it('should make mihomo DNS follow the rules (MATCH to the proxy group), servers resolved by the device', () => {
    const config = clashConfig.parse(parse(feedFor('mihomo/1.19.0').body));
    expect(config.dns).toEqual({
      enable: true,
      ipv6: true,
      'enhanced-mode': 'redir-host',
      'respect-rules': true,
      nameserver: REMOTE_DNS.map((address) => `https://${address}/dns-query`),
      'proxy-server-nameserver': ['system'],
    });
    expect(config.rules).toEqual([`MATCH,${SELECT_GROUP}`]);
    const fake = clashConfig.parse(parse(feedFor('mihomo/1.19.0', undefined, true).body));
    expect(fake.dns).toMatchObject({
      'enhanced-mode': 'fake-ip',
      'fake-ip-range': CLASH_FAKEIP_RANGE,
    });
  });

  it.each(['xray', 'v2ray'])(
    'should send %s DNS through the balancer and answer port 53 from it',
    (format) => {
      const config = xrayConfig.parse(JSON.parse(feedFor('v2rayNG/2.0.7', format).body));
      expect(config.dns).toEqual({ tag: 'dns-internal', servers: [...REMOTE_DNS] });
      expect(config.routing.rules).toEqual([
        { type: 'field', inboundTag: ['dns-internal'], balancerTag: 'best' },
        { type: 'field', network: 'udp', port: '53', outboundTag: 'dns-out' },
        { type: 'field', network: 'tcp,udp', balancerTag: 'best' },
      ]);
    },
  );

  it('should refuse a fakeip value it does not know', () => {
    expect(fakeIpOption(undefined)).toEqual({ ok: true, value: false });
    expect(fakeIpOption('1')).toEqual({ ok: true, value: true });
    expect(fakeIpOption('TRUE')).toEqual({ ok: true, value: true });
    expect(fakeIpOption('0')).toEqual({ ok: true, value: false });
    expect(fakeIpOption('yes')).toEqual({ ok: false, problem: 'fakeip must be 1 or 0' });
    expect(fakeIpOption(['1', '0'])).toEqual({ ok: false, problem: 'fakeip must be 1 or 0' });
  });
});

describe('ws Host by core', () => {
  it('should write wsSettings.host for Xray and headers.Host for v2ray 4.34', () => {
    const xray = JSON.parse(feedFor('v2rayNG/2.0.7').body).outbounds[0].streamSettings;
    expect(xray.wsSettings).toEqual({ path: '/a1b2', host: 'node.example.net' });
    const v2ray = JSON.parse(feedFor('v2rayNG/2.0.7', 'v2ray').body).outbounds[0].streamSettings;
    expect(v2ray.wsSettings).toEqual({ path: '/a1b2', headers: { Host: 'node.example.net' } });
  });
});

describe('feedContentDisposition', () => {
  it.each([
    [
      'SCN Subscription (4 servers)',
      'yaml',
      `attachment; filename="SCN Subscription (4 servers).yaml"; filename*=UTF-8''SCN%20Subscription%20%284%20servers%29.yaml`,
    ],
    [
      'اشتراک SCN',
      'json',
      `attachment; filename="SCN.json"; filename*=UTF-8''%D8%A7%D8%B4%D8%AA%D8%B1%D8%A7%DA%A9%20SCN.json`,
    ],
    [
      '订阅',
      'txt',
      `attachment; filename="scn-subscription.txt"; filename*=UTF-8''%E8%AE%A2%E9%98%85.txt`,
    ],
    ['a"b\\c', 'yaml', `attachment; filename="abc.yaml"; filename*=UTF-8''a%22b%5Cc.yaml`],
  ])('should name %j.%s in UTF-8 with an ASCII fallback', (title, extension, header) => {
    expect(feedContentDisposition(title, extension)).toBe(header);
    // What a client decoding filename* (RFC 5987) reads back.
    const star = /filename\*=UTF-8''(.+)$/.exec(header)![1]!;
    expect(decodeURIComponent(star)).toBe(`${title}.${extension}`);
  });
});
