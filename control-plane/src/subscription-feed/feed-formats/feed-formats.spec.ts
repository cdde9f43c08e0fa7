import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildVlessLink } from '@scn/proto';
import { parse } from 'yaml';
import { clashConfig, singBoxConfig, xrayConfig } from '../../../test/support/feed-schemas';
import { itNeeding } from '../../../test/support/requirements';
import { v2rayTest } from '../../../test/support/v2ray-test';
import { chooseFeedFormat, type FeedFormat, formatForUserAgent } from './client-format';
import { escapeHtml, importLinks, renderFeedPage } from './render-page';
import { qrDataUrl } from '../../common/qr/qr-code';
import {
  AUTO_GROUP,
  feedServers,
  renderClash,
  renderSingBox,
  renderXray,
  SELECT_GROUP,
  v2rayCarries,
} from './renderers';

const UUID = '7d3c1a55-0c2e-4f38-9a1b-2f9e0b6c4d21';
const PBK = 'Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw';

/** One server of each shape the product serves; two share a name. */
const LINKS = [
  buildVlessLink({
    uuid: UUID,
    host: 'fra.example.net',
    port: 443,
    name: 'Frankfurt',
    params: {
      encryption: 'none',
      security: 'reality',
      sni: 'www.example.com',
      fp: 'firefox',
      pbk: PBK,
      sid: '6ba85179e30d4fc2',
      flow: 'xtls-rprx-vision',
      type: 'tcp',
    },
  }),
  buildVlessLink({
    uuid: UUID,
    host: '2001:db8::7',
    port: 8443,
    name: 'CDN ws',
    params: {
      encryption: 'none',
      security: 'tls',
      sni: 'cdn.example.org',
      fp: 'chrome',
      type: 'ws',
      path: '/tunnel?ed=2048',
      host: 'cdn.example.org',
      alpn: 'h2,http/1.1',
    },
  }),
  buildVlessLink({
    uuid: UUID,
    host: '203.0.113.9',
    port: 2053,
    name: 'Frankfurt',
    params: {
      encryption: 'none',
      security: 'tls',
      sni: 'grpc.example.org',
      type: 'grpc',
      serviceName: 'scn-grpc',
    },
  }),
  buildVlessLink({
    uuid: UUID,
    host: '198.51.100.4',
    port: 10443,
    name: 'Plain',
    params: { encryption: 'none', security: 'none', type: 'tcp' },
  }),
];

/** The tests that also run the real v2ray 4.34 on what the renderers wrote. */
const itWithV2ray = itNeeding(['v2ray'], 'feed formats checked by v2ray -test');

describe('formatForUserAgent', () => {
  it.each<[string | undefined, FeedFormat]>([
    [undefined, 'base64'],
    ['', 'base64'],
    ['curl/8.5.0', 'base64'],
    ['Mozilla/5.0 (X11; Linux x86_64)', 'base64'],
    ['v2rayNG/1.8.28', 'base64'],
    ['v2rayNG/1.8.29', 'xray'],
    ['v2rayNG/1.10.7', 'xray'],
    ['v2rayN/6.39', 'base64'],
    ['v2rayN/6.40', 'xray'],
    ['v2rayN/7.12.5', 'xray'],
    ['v2rayN', 'base64'],
    ['Streisand/1.6.41', 'base64'],
    ['NekoBox/Android/1.3.5 (Prefer ClashMeta Format)', 'base64'],
    ['SFA/1.11.4 (Android 14; sing-box 1.11.4)', 'singbox'],
    ['SFI/1.12.0 (iOS 17.5; sing-box 1.12.0)', 'singbox'],
    ['SFM/1.12.0', 'singbox'],
    ['SFT/1.12.0', 'singbox'],
    ['sing-box 1.12.0', 'singbox'],
    ['HiddifyNext/2.5.7 (android) like ClashMeta v2ray sing-box', 'singbox'],
    ['Karing/1.1.2.606 android', 'singbox'],
    ['clash-verge/v2.2.3', 'clash'],
    ['ClashMetaForAndroid/2.11.5.Meta', 'clash'],
    ['clash.meta', 'clash'],
    ['mihomo/1.19.0', 'clash'],
    ['Stash/2.4.7 Clash/1.9.0', 'clash'],
    ['FlClash/v0.8.80 clash-verge Platform/android', 'clash'],
    ['ClashforWindows/0.20.39', 'clash'],
    ['clash', 'clash'],
  ])('should give %j the %s format', (agent, format) => {
    expect(formatForUserAgent(agent)).toBe(format);
  });
});

describe('chooseFeedFormat', () => {
  it.each([
    ['base64', 'SFA/1.11.4', 'base64'],
    ['singbox', 'curl/8.5.0', 'singbox'],
    ['sing-box', undefined, 'singbox'],
    ['clash', 'v2rayNG/1.9.0', 'clash'],
    ['MIHOMO', undefined, 'clash'],
    ['xray', 'clash-verge/v2', 'xray'],
    ['v2ray', undefined, 'v2ray'],
  ])('should let ?format=%s override %j', (query, agent, format) => {
    expect(chooseFeedFormat(query, agent)).toMatchObject({ ok: true, format });
  });

  it.each([[''], ['json'], ['yaml'], [['clash', 'xray']], [{}]])(
    'should refuse ?format=%j',
    (query) => {
      expect(chooseFeedFormat(query, 'SFA/1.11.4')).toEqual({
        ok: false,
        problem: 'format must be one of base64, singbox, clash, xray, v2ray, html',
      });
    },
  );

  const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
  it.each<[unknown, string, string | undefined, FeedFormat]>([
    [undefined, 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0', BROWSER, 'html'],
    [undefined, 'curl/8.5.0', '*/*', 'base64'],
    [undefined, 'curl/8.5.0', undefined, 'base64'],
    [undefined, 'Mozilla/5.0', 'text/html;q=0, */*', 'base64'],
    [undefined, 'mihomo/1.19.0', BROWSER, 'clash'],
    ['base64', 'Mozilla/5.0', BROWSER, 'base64'],
    ['html', 'curl/8.5.0', undefined, 'html'],
  ])('should choose by ?format=%j, User-Agent %j and Accept %j', (query, agent, accept, format) => {
    expect(chooseFeedFormat(query, agent, accept)).toMatchObject({ ok: true, format });
  });

  it('should follow the User-Agent without ?format=', () => {
    expect(chooseFeedFormat(undefined, 'mihomo/1.19.0')).toEqual({
      ok: true,
      format: 'clash',
      client: { name: 'mihomo', version: [1, 19, 0], singBoxVersion: null },
    });
  });
});

const FIXTURES = join(__dirname, 'fixtures');

/** Compares with the golden file (UPDATE_GOLDEN=1 writes it). */
function golden(name: string, text: string): void {
  const path = join(FIXTURES, name);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(path, text);
  expect(existsSync(path)).toBe(true);
  expect(text).toBe(readFileSync(path, 'utf8'));
}

describe('renderers', () => {
  const servers = feedServers(LINKS);

  it('should read every link back with unique names', () => {
    expect(servers.map((server) => server.name)).toEqual([
      'Frankfurt',
      'CDN ws',
      'Frankfurt 2',
      'Plain',
    ]);
    expect(servers[1]).toMatchObject({
      host: '2001:db8::7',
      network: 'ws',
      path: '/tunnel?ed=2048',
      hostHeader: 'cdn.example.org',
      alpn: ['h2', 'http/1.1'],
    });
  });

  it('should write sing-box JSON that passes the schema, with REALITY, TLS, ws and grpc', () => {
    const text = renderSingBox(servers);
    golden('singbox.json', text);
    const config = singBoxConfig.parse(JSON.parse(text));
    const byTag = new Map(config.outbounds.map((outbound) => [outbound.tag, outbound]));
    expect(byTag.get('Frankfurt')).toMatchObject({
      server: 'fra.example.net',
      server_port: 443,
      uuid: UUID,
      flow: 'xtls-rprx-vision',
      tls: {
        server_name: 'www.example.com',
        utls: { enabled: true, fingerprint: 'firefox' },
        reality: { enabled: true, public_key: PBK, short_id: '6ba85179e30d4fc2' },
      },
    });
    expect(byTag.get('CDN ws')).toMatchObject({
      server: '2001:db8::7',
      tls: { server_name: 'cdn.example.org', alpn: ['h2', 'http/1.1'] },
      transport: { type: 'ws', path: '/tunnel?ed=2048', headers: { Host: 'cdn.example.org' } },
    });
    expect(byTag.get('Frankfurt 2')).toMatchObject({
      transport: { type: 'grpc', service_name: 'scn-grpc' },
    });
    expect(byTag.get('Plain')).not.toHaveProperty('tls');
    expect(byTag.get(AUTO_GROUP)).toMatchObject({
      type: 'urltest',
      outbounds: ['Frankfurt', 'CDN ws', 'Frankfurt 2', 'Plain'],
    });
    expect(byTag.get(SELECT_GROUP)).toMatchObject({ type: 'selector', default: AUTO_GROUP });
    expect(config.route.final).toBe(SELECT_GROUP);
  });

  it('should write mihomo YAML that parses back and passes the schema', () => {
    const text = renderClash(servers);
    golden('clash.yaml', text);
    const config = clashConfig.parse(parse(text));
    const byName = new Map(config.proxies.map((proxy) => [proxy.name, proxy]));
    expect(byName.get('Frankfurt')).toEqual({
      name: 'Frankfurt',
      type: 'vless',
      server: 'fra.example.net',
      port: 443,
      uuid: UUID,
      network: 'tcp',
      udp: true,
      tls: true,
      flow: 'xtls-rprx-vision',
      servername: 'www.example.com',
      'client-fingerprint': 'firefox',
      'reality-opts': { 'public-key': PBK, 'short-id': '6ba85179e30d4fc2' },
    });
    expect(byName.get('CDN ws')).toMatchObject({
      server: '2001:db8::7',
      'ws-opts': { path: '/tunnel?ed=2048', headers: { Host: 'cdn.example.org' } },
    });
    expect(byName.get('Frankfurt 2')).toMatchObject({
      'grpc-opts': { 'grpc-service-name': 'scn-grpc' },
    });
    expect(byName.get('Plain')).toMatchObject({ tls: false });
    expect(config['proxy-groups']).toEqual([
      { name: SELECT_GROUP, type: 'select', proxies: [AUTO_GROUP, ...byName.keys()] },
      expect.objectContaining({ name: AUTO_GROUP, type: 'url-test', proxies: [...byName.keys()] }),
    ]);
    expect(config.rules).toEqual([`MATCH,${SELECT_GROUP}`]);
  });

  it('should keep names YAML would misread as strings', () => {
    const tricky = feedServers(
      ['yes', '- dash', '1.5', 'a: b', '#hash', 'quote\'s "both"'].map((name, index) =>
        buildVlessLink({ uuid: UUID, host: '203.0.113.1', port: 1000 + index, name, params: {} }),
      ),
    );
    const config = clashConfig.parse(parse(renderClash(tricky)));
    expect(config.proxies.map((proxy) => proxy.name)).toEqual(tricky.map((s) => s.name));
  });

  it('should write Xray JSON with a leastPing balancer over every server and REALITY', () => {
    const text = renderXray(servers, { core: 'xray', remarks: 'SCN' });
    golden('xray.json', text);
    xrayConfig.parse(JSON.parse(text));
    const config = JSON.parse(text);
    const proxies = config.outbounds.filter((o: { tag: string }) => o.tag.startsWith('proxy-'));
    expect(proxies).toHaveLength(4);
    expect(proxies[0]).toEqual({
      tag: 'proxy-1',
      protocol: 'vless',
      settings: {
        vnext: [
          {
            address: 'fra.example.net',
            port: 443,
            users: [{ id: UUID, encryption: 'none', flow: 'xtls-rprx-vision' }],
          },
        ],
      },
      streamSettings: {
        network: 'tcp',
        security: 'reality',
        realitySettings: {
          serverName: 'www.example.com',
          fingerprint: 'firefox',
          publicKey: PBK,
          shortId: '6ba85179e30d4fc2',
          spiderX: '/',
        },
      },
    });
    expect(proxies[1].streamSettings).toMatchObject({
      security: 'tls',
      tlsSettings: { serverName: 'cdn.example.org', fingerprint: 'chrome' },
      wsSettings: { path: '/tunnel?ed=2048', host: 'cdn.example.org' },
    });
    expect(proxies[2].streamSettings.grpcSettings).toEqual({
      serviceName: 'scn-grpc',
      multiMode: false,
    });
    expect(config.routing.balancers).toEqual([
      { tag: 'best', selector: ['proxy-'], strategy: { type: 'leastPing' } },
    ]);
    expect(config.observatory.subjectSelector).toEqual(['proxy-']);
  });

  itWithV2ray(
    'should write v2ray JSON that the real v2ray 4.34 accepts, with only the servers it carries',
    () => {
      const text = renderXray(servers, { core: 'v2ray', remarks: 'SCN' });
      golden('v2ray.json', text);
      xrayConfig.parse(JSON.parse(text));
      const config = JSON.parse(text);
      expect(config.observatory).toBeUndefined();
      expect(servers.filter(v2rayCarries).map((server) => server.name)).toEqual([
        'CDN ws',
        'Plain',
      ]);
      expect(config.outbounds.map((o: { tag: string }) => o.tag)).toEqual([
        'proxy-1',
        'proxy-2',
        'direct',
        'block',
        'dns-out',
      ]);
      expect(v2rayTest(text)).toMatch(/Configuration OK/);
      // The same binary refuses what it cannot carry: the check can fail.
      const xray = renderXray(servers, { core: 'xray', remarks: 'SCN' });
      expect(() => v2rayTest(xray)).toThrow();
    },
  );

  itWithV2ray(
    'should write configurations the clients accept for an empty or placeholder feed',
    () => {
      expect(() => singBoxConfig.parse(JSON.parse(renderSingBox([])))).not.toThrow();
      expect(() => clashConfig.parse(parse(renderClash([])))).not.toThrow();
      expect(v2rayTest(renderXray([], { core: 'v2ray', remarks: 'SCN' }))).toMatch(
        /Configuration OK/,
      );
    },
  );
});

describe('servers a format cannot carry', () => {
  const odd = [
    ['xhttp', { security: 'tls', sni: 'x.example.com', type: 'xhttp', path: '/x' }],
    ['xtls', { security: 'xtls', flow: 'xtls-rprx-direct', type: 'tcp' }],
    ['reality without key', { security: 'reality', sni: 'r.example.com', type: 'tcp' }],
    [
      'upgrade',
      {
        security: 'tls',
        sni: 'u.example.com',
        type: 'httpupgrade',
        path: '/u',
        host: 'u.example.com',
      },
    ],
  ].map(([name, params]) =>
    buildVlessLink({
      uuid: UUID,
      host: '203.0.113.5',
      port: 443,
      name: name as string,
      params: params as Record<string, string>,
    }),
  );
  const servers = feedServers(odd);

  itWithV2ray(
    'should leave them out of each format rather than write them as something else',
    () => {
      const singBox = singBoxConfig.parse(JSON.parse(renderSingBox(servers)));
      expect(singBox.outbounds.filter((o) => o.type === 'vless')).toEqual([
        expect.objectContaining({
          tag: 'upgrade',
          transport: { type: 'httpupgrade', path: '/u', host: 'u.example.com' },
        }),
      ]);
      expect(clashConfig.parse(parse(renderClash(servers))).proxies).toEqual([]);
      const xray = JSON.parse(renderXray(servers, { core: 'xray', remarks: 'N' }));
      expect(xray.outbounds.map((o: { tag: string }) => o.tag)).toEqual([
        'proxy-1',
        'direct',
        'block',
        'dns-out',
      ]);
      expect(xray.outbounds[0].streamSettings.httpupgradeSettings).toEqual({
        path: '/u',
        host: 'u.example.com',
      });
      const v2ray = renderXray(servers, { core: 'v2ray', remarks: 'N' });
      expect(JSON.parse(v2ray).outbounds.map((o: { tag: string }) => o.tag)).toEqual([
        'direct',
        'block',
        'dns-out',
      ]);
      expect(v2rayTest(v2ray)).toMatch(/Configuration OK/);
    },
  );

  it('should still list them on the page with their links', () => {
    const page = renderFeedPage({
      title: 'T',
      url: 'https://portal.scn.example/sub/x',
      state: 'active',
      expiresAt: new Date('2026-12-01T00:00:00Z'),
      links: odd,
      dashboardUrl: 'https://portal.scn.example/client-dashboard',
      locale: 'en',
    });
    for (const link of odd) expect(page).toContain(escapeHtml(link));
  });
});

describe('round trip of the share-link parameters', () => {
  it.each([
    [
      'reality',
      {
        security: 'reality',
        sni: 'a.example.com',
        fp: 'safari',
        pbk: PBK,
        sid: 'ab',
        flow: 'xtls-rprx-vision',
        type: 'tcp',
      },
    ],
    [
      'tls ws',
      {
        security: 'tls',
        sni: 'b.example.com',
        fp: 'chrome',
        type: 'ws',
        path: '/p',
        host: 'h.example.com',
      },
    ],
    ['tls grpc', { security: 'tls', sni: 'c.example.com', type: 'grpc', serviceName: 'svc' }],
  ])('should carry the %s parameters into every format', (_, params) => {
    const [server] = feedServers([
      buildVlessLink({ uuid: UUID, host: 'n.example.net', port: 443, name: 'N', params }),
    ]);
    const singBox = singBoxConfig.parse(JSON.parse(renderSingBox([server!]))).outbounds[2]!;
    const clash = clashConfig.parse(parse(renderClash([server!]))).proxies[0]!;
    const xrayJson = JSON.parse(renderXray([server!], { core: 'xray', remarks: 'N' }));
    xrayConfig.parse(xrayJson);
    const xray = xrayJson.outbounds[0];
    const p = params as Record<string, string>;
    const fromSingBox = singBox.type === 'vless' ? singBox : null;
    expect({
      sni: fromSingBox?.tls?.server_name,
      fp: fromSingBox?.tls?.utls?.fingerprint,
      pbk: fromSingBox?.tls?.reality?.public_key,
      sid: fromSingBox?.tls?.reality?.short_id,
      flow: fromSingBox?.flow,
      type: fromSingBox?.transport?.type ?? 'tcp',
    }).toEqual(expected(p));
    expect({
      sni: clash.servername,
      fp: clash['client-fingerprint'],
      pbk: clash['reality-opts']?.['public-key'],
      sid: clash['reality-opts']?.['short-id'],
      flow: clash.flow,
      type: clash.network,
    }).toEqual(expected(p));
    const stream = xray.streamSettings;
    const tls = stream.realitySettings ?? stream.tlsSettings;
    expect({
      sni: tls.serverName,
      fp: tls.fingerprint,
      pbk: tls.publicKey,
      sid: tls.shortId,
      flow: xray.settings.vnext[0].users[0].flow,
      type: stream.network,
    }).toEqual(expected(p));
    if (p.type === 'ws') {
      expect([clash['ws-opts']?.path, stream.wsSettings.path]).toEqual([p.path, p.path]);
      expect(stream.wsSettings.host).toBe(p.host);
    }
    if (p.type === 'grpc') {
      expect([clash['grpc-opts']?.['grpc-service-name'], stream.grpcSettings.serviceName]).toEqual([
        p.serviceName,
        p.serviceName,
      ]);
    }
  });
});

function expected(p: Record<string, string>): Record<string, string | undefined> {
  return { sni: p.sni, fp: p.fp, pbk: p.pbk, sid: p.sid, flow: p.flow, type: p.type };
}

describe('renderFeedPage', () => {
  const URL_ = 'https://portal.scn.example/sub/AbC-dEf_123';
  const input = {
    title: 'SCN Subscription (4 servers)',
    url: URL_,
    state: 'active' as const,
    expiresAt: new Date('2026-12-01T10:30:00Z'),
    links: [
      ...LINKS,
      buildVlessLink({ uuid: UUID, host: '203.0.113.3', port: 443, name: `<b>&"x'`, params: {} }),
    ],
    dashboardUrl: 'https://portal.scn.example/client-dashboard',
    locale: 'en' as const,
  };

  it('should list every server with the QR code of its link, and the import buttons', () => {
    const page = renderFeedPage(input);
    for (const link of input.links) {
      expect(page).toContain(`<img src="${qrDataUrl(link).qrCode}"`);
      expect(page).toContain(escapeHtml(link));
    }
    expect(page).toContain(`<img src="${qrDataUrl(URL_).qrCode}"`);
    expect(page).toContain('&lt;b&gt;&amp;&quot;x&#39;');
    expect(page).not.toContain(`<b>&"x'`);
    expect(page).toContain('[2001:db8::7]:8443');
    expect(page).toContain('<html lang="en" dir="ltr">');
    expect(page).toContain('Paid until Dec 1, 2026, 10:30 AM UTC');
    const encoded = encodeURIComponent(URL_);
    for (const href of [
      `v2rayng://install-config?url=${encoded}#`,
      `hiddify://import/${URL_}"`,
      `sing-box://import-remote-profile?url=${encoded}#`,
      `clash://install-config?url=${encoded}&amp;name=`,
      `streisand://import/${URL_}#`,
    ]) {
      expect(page).toContain(`href="${href}`);
    }
    expect(importLinks(URL_, 'N')).toHaveLength(5);
    expect(page).not.toMatch(/<script/i);
  });

  it('should show why a subscription is not running, without QR codes of its placeholders', () => {
    const page = renderFeedPage({
      ...input,
      state: 'paused',
      links: [
        buildVlessLink({
          uuid: '00000000-0000-0000-0000-000000000000',
          host: '0.0.0.0',
          port: 1,
          name: 'Paused: activate at https://portal.scn.example/client-dashboard',
          params: {},
        }),
      ],
    });
    expect(page).toContain('<li class="notice">Paused: activate at');
    expect(page).toContain('Not running: <a href="https://portal.scn.example/client-dashboard">');
    // Only the QR code of the subscription URL itself.
    expect(page.match(/<img /g)).toHaveLength(1);
    expect(page).not.toContain('00000000-0000');
  });

  it("should speak the visitor's language, Persian right to left in its own calendar", () => {
    const fa = renderFeedPage({ ...input, locale: 'fa' });
    expect(fa).toContain('<html lang="fa" dir="rtl">');
    expect(fa).toContain('<h2>افزودن به برنامهٔ فیلترشکن</h2>');
    expect(fa).toContain(`افزودن به \u2068v2rayNG\u2069`);
    // 1 December 2026 is 10 Azar 1405: Persian digits, Solar Hijri.
    expect(fa).toMatch(/پرداخت‌شده تا .*۱۴۰۵/);
    expect(fa).not.toContain('Add to your app');
    const ru = renderFeedPage({ ...input, locale: 'ru' });
    expect(ru).toContain('<html lang="ru" dir="ltr">');
    expect(ru).toContain('<h2>Добавить в приложение</h2>');
    const zh = renderFeedPage({ ...input, locale: 'zh' });
    expect(zh).toContain('<html lang="zh" dir="ltr">');
    expect(zh).toContain('<h2>添加到客户端</h2>');
  });
});
