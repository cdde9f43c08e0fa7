import {
  buildVlessLink,
  decodeSubscriptionContent,
  subscriptionCreationResponseSchema,
} from '@scn/proto';
import { parse } from 'yaml';
import { registerAccount } from '../support/accounts';
import { clashConfig, singBoxConfig, xrayConfig } from '../support/feed-schemas';
import { insertAccount, insertServers } from '../support/market-fixtures';
import { buy } from '../support/subscriptions';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * One subscription URL, every client's format. The app's User-Agent picks it,
 * `?format=` overrides it; every format carries the subscription's servers (REALITY, TLS over
 * ws and grpc) and the headers subscription apps read.
 */

const PORTAL = 'https://portal.scn.example';
// In the launch period: subscriptions are free, no wallet needed.
const now = new Date('2026-03-01T12:00:00.000Z');
const PBK = 'Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw';
let t: TestApp;
let path: string;
let vlessUuid: string;
let expire: number;

beforeAll(async () => {
  t = await startTestApp(
    { PUBLIC_URL: PORTAL, LAUNCH_PERIOD_ENDS: '2026-06-30' },
    { clock: { now: () => now } },
  );
  const operator = await insertAccount(t.db);
  const manual = (name: string, port: number, params: Record<string, string>) =>
    buildVlessLink({
      uuid: 'b831381d-6324-4d53-ad4f-8cda48b30811',
      host: '203.0.113.20',
      port,
      name,
      params: { encryption: 'none', ...params },
    });
  const ids = await insertServers(
    t.db,
    [
      {
        ownerUuid: operator,
        name: 'Reality node',
        host: 'fra.example.net',
        port: 443,
        inbound: {
          security: 'reality',
          sni: 'www.example.com',
          fp: 'firefox',
          pbk: PBK,
          sid: '6ba85179e30d4fc2',
          flow: 'xtls-rprx-vision',
          network: 'tcp',
        },
      },
      {
        ownerUuid: operator,
        name: 'CDN ws',
        source: 'manual',
        host: '203.0.113.20',
        port: 8443,
        vlessString: manual('CDN ws', 8443, {
          security: 'tls',
          sni: 'cdn.example.org',
          type: 'ws',
          path: '/ws',
          host: 'cdn.example.org',
        }),
        checkedAt: now,
      },
      {
        ownerUuid: operator,
        name: 'gRPC node',
        source: 'manual',
        host: '203.0.113.20',
        port: 2053,
        vlessString: manual('gRPC node', 2053, {
          security: 'tls',
          sni: 'grpc.example.org',
          type: 'grpc',
          serviceName: 'scn',
        }),
        checkedAt: now,
      },
    ],
    now,
  );
  const client = await registerAccount(t, { userType: 'client' });
  const response = await buy(t, client, ids, { billingCycle: 'monthly' }).expect(200);
  const created = subscriptionCreationResponseSchema.parse(response.body);
  path = new URL(created.subscriptionUrl).pathname;
  vlessUuid = created.subscription.uuid;
  expire = Math.floor(new Date(created.expirationDate).getTime() / 1000);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

async function fetchAs(userAgent: string | null, query = '') {
  const request = t.http().get(`${path}${query}`);
  if (userAgent !== null) request.set('User-Agent', userAgent);
  const response = await request.buffer(true).parse((res, done) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (text += chunk));
    res.on('end', () => done(null, text));
  });
  expect(response.status).toBe(200);
  // The headers apps read come with every format.
  expect(response.headers).toMatchObject({
    'cache-control': 'no-store',
    'support-url': `${PORTAL}/support`,
    'profile-web-page-url': `${PORTAL}/client-dashboard`,
    'profile-update-interval': '12',
    'subscription-userinfo': `upload=0; download=0; total=0; expire=${expire}`,
  });
  expect(response.headers['profile-title']).toMatch(/^base64:/);
  expect(response.headers['vary']).toMatch(/User-Agent/);
  return {
    type: response.headers['content-type'],
    disposition: response.headers['content-disposition'],
    body: response.body as string,
  };
}

/** The file named after the feed's title, UTF-8 with an ASCII fallback (Clash Verge shows it). */
function disposition(extension: string): string {
  return `attachment; filename="SCN Subscription (3 servers).${extension}"; filename*=UTF-8''SCN%20Subscription%20%283%20servers%29.${extension}`;
}

describe('GET /sub/<secret> in each client format', () => {
  it.each([
    ['curl/8.5.0', ''],
    ['v2rayNG/1.8.20', ''],
    ['Streisand/1.6.41', ''],
    ['NekoBox/Android/1.3.5', ''],
    ['SFA/1.11.4 (Android 14; sing-box 1.11.4)', '?format=base64'],
  ])('should serve base64 share links to %j %s', async (agent, query) => {
    const answer = await fetchAs(agent, query);
    expect(answer.type).toBe('text/plain; charset=utf-8');
    expect(answer.disposition).toBe(disposition('txt'));
    const links = decodeSubscriptionContent(answer.body)!;
    expect(links).toHaveLength(3);
    expect(links[0]).toContain(`pbk=${PBK}`);
  });

  it('should serve base64 when the request has no User-Agent', async () => {
    expect((await fetchAs(null)).type).toBe('text/plain; charset=utf-8');
  });

  it.each([
    ['SFA/1.11.4 (Android 14; sing-box 1.11.4)', ''],
    ['SFI/1.12.0', ''],
    ['HiddifyNext/2.5.7 (android) like ClashMeta v2ray sing-box', ''],
    ['Karing/1.1.2.606', ''],
    ['curl/8.5.0', '?format=singbox'],
  ])('should serve sing-box JSON to %j %s', async (agent, query) => {
    const answer = await fetchAs(agent, query);
    expect(answer.type).toBe('application/json; charset=utf-8');
    expect(answer.disposition).toBe(disposition('json'));
    const config = singBoxConfig.parse(JSON.parse(answer.body));
    const vless = config.outbounds.filter((outbound) => outbound.type === 'vless');
    expect(vless.map((outbound) => outbound.tag)).toEqual(['Reality node', 'CDN ws', 'gRPC node']);
    expect(vless[0]).toMatchObject({
      uuid: vlessUuid,
      flow: 'xtls-rprx-vision',
      tls: {
        server_name: 'www.example.com',
        reality: { public_key: PBK, short_id: '6ba85179e30d4fc2' },
      },
    });
    expect(vless[1]).toMatchObject({ transport: { type: 'ws', path: '/ws' } });
    expect(vless[2]).toMatchObject({ transport: { type: 'grpc', service_name: 'scn' } });
    expect(config.outbounds.find((outbound) => outbound.type === 'urltest')).toMatchObject({
      outbounds: ['Reality node', 'CDN ws', 'gRPC node'],
    });
  });

  it.each([
    ['clash-verge/v2.2.3', ''],
    ['ClashMetaForAndroid/2.11.5.Meta', ''],
    ['mihomo/1.19.0', ''],
    ['Stash/2.4.7 Clash/1.9.0', ''],
    ['FlClash/v0.8.80', ''],
    ['curl/8.5.0', '?format=clash'],
  ])('should serve mihomo YAML to %j %s', async (agent, query) => {
    const answer = await fetchAs(agent, query);
    expect(answer.type).toBe('text/yaml; charset=utf-8');
    expect(answer.disposition).toBe(disposition('yaml'));
    const config = clashConfig.parse(parse(answer.body));
    expect(config.proxies[0]).toMatchObject({
      uuid: vlessUuid,
      servername: 'www.example.com',
      'client-fingerprint': 'firefox',
      'reality-opts': { 'public-key': PBK, 'short-id': '6ba85179e30d4fc2' },
    });
    expect(config.proxies[1]).toMatchObject({ network: 'ws', 'ws-opts': { path: '/ws' } });
    expect(config.proxies[2]).toMatchObject({ 'grpc-opts': { 'grpc-service-name': 'scn' } });
    expect(config['proxy-groups'].map((group) => group.type)).toEqual(['select', 'url-test']);
  });

  it.each([
    ['v2rayNG/1.9.16', ''],
    ['v2rayN/7.12.5', ''],
    ['curl/8.5.0', '?format=xray'],
  ])('should serve Xray JSON to %j %s', async (agent, query) => {
    const answer = await fetchAs(agent, query);
    expect(answer.type).toBe('application/json; charset=utf-8');
    expect(() => xrayConfig.parse(JSON.parse(answer.body))).not.toThrow();
    const config = JSON.parse(answer.body);
    expect(config.remarks).toBe('SCN Subscription (3 servers)');
    expect(config.outbounds[0].streamSettings.realitySettings).toMatchObject({
      publicKey: PBK,
      shortId: '6ba85179e30d4fc2',
    });
    expect(config.routing.balancers[0].strategy).toEqual({ type: 'leastPing' });
    expect(config.dns.tag).toBe('dns-internal');
    expect(config.outbounds[1].streamSettings.wsSettings).toEqual({
      path: '/ws',
      host: 'cdn.example.org',
    });
  });

  it.each([
    ['SFA/1.10.7 (1; sing-box 1.10.7)', 'legacy'],
    ['SFA/1.11.4 (1; sing-box 1.11.4)', '1.11'],
    ['SFA/1.12.4 (1; sing-box 1.12.4)', '1.12'],
  ])('should write sing-box for %j in the syntax its core loads (%s)', async (agent, syntax) => {
    const config = singBoxConfig.parse(JSON.parse((await fetchAs(agent)).body));
    const rules = JSON.stringify(config.route.rules);
    expect(rules.includes('"action"')).toBe(syntax !== 'legacy');
    expect('type' in config.dns.servers[0]!).toBe(syntax === '1.12');
    expect(config.dns.final).toBe('dns-remote');
  });

  it('should turn FakeIP on with ?fakeip=1 and refuse another value', async () => {
    const singBox = singBoxConfig.parse(
      JSON.parse((await fetchAs('SFA/1.12.4', '?fakeip=1')).body),
    );
    expect(singBox.dns.servers.map((server) => server.tag)).toContain('dns-fake');
    const clash = clashConfig.parse(parse((await fetchAs('mihomo/1.19.0', '?fakeip=1')).body));
    expect(clash.dns['enhanced-mode']).toBe('fake-ip');
    const bad = await t.http().get(`${path}?fakeip=maybe`).expect(400);
    expect(bad.text).toBe('fakeip must be 1 or 0');
  });

  it('should serve v2ray JSON with only the servers v2ray 4.34 carries on ?format=v2ray', async () => {
    const config = JSON.parse((await fetchAs('curl/8.5.0', '?format=v2ray')).body);
    expect(config.outbounds.map((o: { tag: string }) => o.tag)).toEqual([
      'proxy-1',
      'direct',
      'block',
      'dns-out',
    ]);
    // v2ray 4.34 has no wsSettings.host: the Host header.
    expect(config.outbounds[0].streamSettings.wsSettings).toEqual({
      path: '/ws',
      headers: { Host: 'cdn.example.org' },
    });
  });

  it('should refuse an unknown ?format= with 400, an unknown secret with 404', async () => {
    const bad = await t.http().get(`${path}?format=json`).expect(400);
    expect(bad.text).toBe('format must be one of base64, singbox, clash, xray, v2ray, html');
    await t
      .http()
      .get(`/sub/${'A'.repeat(43)}?format=clash`)
      .set('User-Agent', 'mihomo/1.19')
      .expect(404);
  });

  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Firefox/133.0', ''],
    ['curl/8.5.0', '?format=html'],
  ])('should show %j %s the page with QR codes and import buttons', async (agent, query) => {
    const response = await t
      .http()
      .get(`${path}${query}`)
      .set('User-Agent', agent)
      .set('Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')
      .expect(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-disposition']).toBeUndefined();
    expect(response.headers['vary']).toBe('User-Agent, Accept, Accept-Language');
    // The CSP lets the page show its data: images and runs no script.
    expect(response.headers['content-security-policy']).toContain("img-src 'self' data:");
    const page = response.text;
    expect(page).toContain('<h3>Reality node</h3>');
    expect(page).toContain('<h3>gRPC node</h3>');
    expect(page.match(/<img src="data:image\/png;base64,/g)).toHaveLength(4);
    const url = `${PORTAL}${path}`;
    expect(page).toContain(`href="v2rayng://install-config?url=${encodeURIComponent(url)}#`);
    expect(page).toContain(`href="hiddify://import/${url}"`);
    expect(page).toContain(`sing-box://import-remote-profile?url=${encodeURIComponent(url)}#`);
    expect(page).toContain(`clash://install-config?url=${encodeURIComponent(url)}&amp;name=`);
    expect(page).toContain(`streisand://import/${url}#`);
    expect(page).toContain(vlessUuid);
  });

  it.each([
    [undefined, '', 'en', 'ltr', 'Add to your app'],
    ['fa-IR,fa;q=0.9,en;q=0.5', '', 'fa', 'rtl', 'افزودن به برنامهٔ فیلترشکن'],
    ['ru-RU,ru;q=0.9', '', 'ru', 'ltr', 'Добавить в приложение'],
    ['zh-CN,zh;q=0.9', '', 'zh', 'ltr', '添加到客户端'],
    ['en-US', '?format=html&lang=fa', 'fa', 'rtl', 'افزودن به برنامهٔ فیلترشکن'],
  ])(
    'should show the page to Accept-Language %j %s in its language',
    async (acceptLanguage, query, lang, dir, heading) => {
      const request = t
        .http()
        .get(`${path}${query}`)
        .set('User-Agent', 'Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile Safari/537.36')
        .set('Accept', 'text/html');
      if (acceptLanguage) request.set('Accept-Language', acceptLanguage);
      const page = (await request.expect(200)).text;
      expect(page).toContain(`<html lang="${lang}" dir="${dir}">`);
      expect(page).toContain(`<h2>${heading}</h2>`);
      if (lang !== 'en') expect(page).not.toContain('Add to your app');
    },
  );

  it('should still give an app its format when it names text/html', async () => {
    const response = await t
      .http()
      .get(path)
      .set('User-Agent', 'mihomo/1.19.0')
      .set('Accept', 'text/html, */*')
      .expect(200);
    expect(response.headers['content-type']).toBe('text/yaml; charset=utf-8');
  });
});
