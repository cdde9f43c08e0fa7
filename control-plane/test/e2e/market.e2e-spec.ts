import {
  adminServersResponseSchema,
  CONNECT_COOLDOWN_SECONDS,
  MARKET_MAX_LIMIT,
  MARKET_MESSAGES,
  marketCountriesResponseSchema,
  marketServersResponseSchema,
  marketStatsResponseSchema,
  markServerProcessingResponseSchema,
  processingServersResponseSchema,
  serverHealthResponseSchema,
} from '@scn/proto';
import { PremiumServers } from '../../src/market/premium-servers';
import { ReliabilitySweepJob } from '../../src/agent-reports/reliability-sweep.job';
import { registerAccount } from '../support/accounts';
import { allowClients, insertAccount, insertServers, promote } from '../support/market-fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

const OPERATOR_EMAIL = 'platform.operator@example.com';
let now = new Date('2026-11-20T12:00:00.000Z');
const clock = { now: () => now };
let t: TestApp;

let client: Awaited<ReturnType<typeof registerAccount>>;
let otherClient: Awaited<ReturnType<typeof registerAccount>>;
let node: Awaited<ReturnType<typeof registerAccount>>;
let operator: Awaited<ReturnType<typeof registerAccount>>;
let ids: {
  fast: string;
  slow: string;
  promoted: string;
  full: string;
  hidden: string;
  premium: string;
  noAddress: string;
};

beforeAll(async () => {
  t = await startTestApp({ PLATFORM_OPERATOR_EMAIL: OPERATOR_EMAIL }, { clock });
  [client, otherClient, node, operator] = await Promise.all([
    registerAccount(t, { userType: 'client' }),
    registerAccount(t, { userType: 'client' }),
    registerAccount(t, { userType: 'node' }),
    registerAccount(t, { userType: 'node', email: OPERATOR_EMAIL }),
  ]);
  const owner = await insertAccount(t.db);
  const [fast, slow, promoted, full, hidden, noAddress] = await insertServers(
    t.db,
    [
      { ownerUuid: owner, name: 'Fast Frankfurt', pingMs: 10, country: 'DE' },
      { ownerUuid: owner, name: 'Slow Tokyo', pingMs: 200, country: 'JP', location: 'Tokyo' },
      { ownerUuid: owner, name: 'Promoted Paris', pingMs: 90, country: 'FR', location: 'Paris' },
      { ownerUuid: owner, name: 'Full House', pingMs: 5, country: 'DE', tier: 'tier1' },
      { ownerUuid: owner, name: 'Hidden Flaky', reliabilityAtReport: 80, country: 'DE' },
      { ownerUuid: owner, name: 'No Address', host: null, port: null, country: 'US' },
    ],
    now,
  );
  const [premium] = await insertServers(
    t.db,
    [{ ownerUuid: operator.uuid, name: 'Operator box', pingMs: 300, country: 'NL' }],
    now,
  );
  await allowClients(t.db, full!, 10);
  await promote(t.db, promoted!, now, new Date(now.getTime() + 86_400_000), now);
  ids = {
    fast: fast!,
    slow: slow!,
    promoted: promoted!,
    full: full!,
    hidden: hidden!,
    premium: premium!,
    noAddress: noAddress!,
  };
});
afterAll(() => t.close());

describe('GET /data/servers', () => {
  it('should list the listed servers in the spec order for a visitor', async () => {
    const response = await t.http().get('/data/servers').expect(200);
    const body = marketServersResponseSchema.parse(response.body);
    expect(body.servers.map((s) => s.id)).toEqual([
      ids.premium,
      ids.promoted,
      ids.fast,
      ids.slow,
      ids.full,
    ]);
    expect(body).toMatchObject({ success: true, totalPages: 1, total: 5, page: 1, limit: 20 });
    const premium = body.servers[0]!;
    expect(premium).toMatchObject({
      name: 'Premium Server 1',
      country: 'Premium Network',
      countryCode: 'NL',
      location: 'Premium',
      isAdminServer: true,
      isPromoted: true,
      price: 10,
      reliability: 100,
      nodeUUID: operator.uuid,
    });
    expect(body.servers[4]).toMatchObject({
      isDisabled: true,
      availableUuids: 0,
      hasAvailable: false,
      controls: { connectButton: false, reason: 'No available slots' },
    });
    for (const server of body.servers) {
      expect(server.vlessLink).toBe('');
      expect(server.vlessString).toBe('');
      expect(server.isSubscribed).toBe(false);
    }
  });

  it('should filter, search and sort as asked', async () => {
    const ping = await t.http().get('/data/servers?sort=ping&order=asc').expect(200);
    expect(ping.body.servers.map((s: { id: string }) => s.id)).toEqual([
      ids.premium,
      ids.promoted,
      ids.slow,
      ids.fast,
      ids.full,
    ]);
    const country = await t.http().get('/data/servers?country=de').expect(200);
    expect(country.body.servers.map((s: { id: string }) => s.id)).toEqual([ids.fast, ids.full]);
    const search = await t.http().get('/data/servers?search=TOKYO&country=all').expect(200);
    expect(search.body.servers.map((s: { id: string }) => s.id)).toEqual([ids.slow]);
    // Far below the cap: the number is exact (docs/api.md "Market search").
    expect(search.body).toMatchObject({ total: 1, totalCapped: false, totalPages: 1 });
    const paged = await t.http().get('/data/servers?limit=2&page=3').expect(200);
    expect(paged.body).toMatchObject({
      totalPages: 3,
      total: 5,
      totalCapped: false,
      page: 3,
      limit: 2,
    });
    expect(paged.body.servers.map((s: { id: string }) => s.id)).toEqual([ids.full]);
  });

  it('should answer a signed-in client the same list, and ignore a session that is not valid', async () => {
    const signedIn = await t.http().get('/data/servers').set('Cookie', client.cookie).expect(200);
    expect(signedIn.body.total).toBe(5);
    await t.http().get('/data/servers').set('Cookie', 'scn_session=nonsense').expect(200);
    await t.http().get('/data/servers').set('Authorization', 'Bearer x').expect(200);
  });

  it('should clamp a huge limit and ignore cache busters', async () => {
    const response = await t.http().get('/data/servers?limit=1000000000&t=123').expect(200);
    expect(response.body.limit).toBe(MARKET_MAX_LIMIT);
  });

  it.each([
    ['page=-1', MARKET_MESSAGES.pageInvalid],
    ['page=0', MARKET_MESSAGES.pageInvalid],
    ['page=abc', MARKET_MESSAGES.pageInvalid],
    ['page=1e9', MARKET_MESSAGES.pageInvalid],
    ['page=1&page=2', MARKET_MESSAGES.pageInvalid],
    ['limit=0', MARKET_MESSAGES.limitInvalid],
    ['limit=-20', MARKET_MESSAGES.limitInvalid],
    ['sort=name', MARKET_MESSAGES.sortInvalid],
    ['sort=ping&sort=uptime', MARKET_MESSAGES.sortInvalid],
    ['order=up', MARKET_MESSAGES.orderInvalid],
    ['country=Germany', MARKET_MESSAGES.countryInvalid],
    ['country=ZZ', MARKET_MESSAGES.countryInvalid],
    [`search=${'a'.repeat(101)}`, MARKET_MESSAGES.searchTooLong],
    ['search=a%00b', MARKET_MESSAGES.searchInvalid],
    ['search=a&search=b', MARKET_MESSAGES.searchInvalid],
  ])('should answer 400 for %s', async (query, message) => {
    const response = await t.http().get(`/data/servers?${query}`).expect(400);
    expect(response.body).toMatchObject({ success: false, message, code: 'common.invalid' });
  });

  it('should tag a page, answer 304 to a client holding it, and tag another page differently', async () => {
    const first = await t.http().get('/data/servers?sort=ping').expect(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[0-9a-f]+-[A-Za-z0-9+/]{27}"$/);
    const again = await t.http().get('/data/servers?sort=ping').set('If-None-Match', etag);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const other = await t.http().get('/data/servers?sort=ping&order=asc').expect(200);
    expect(other.headers.etag).not.toBe(etag);
    await t.http().get('/data/servers?sort=ping&order=asc').set('If-None-Match', etag).expect(200);
  });

  it('should answer an empty page past the last one', async () => {
    const response = await t.http().get('/data/servers?page=1000000').expect(200);
    expect(response.body).toMatchObject({ servers: [], totalPages: 1, total: 5 });
  });
});

describe('GET /data/countries and /data/stats', () => {
  it('should count the listed servers only', async () => {
    const countries = marketCountriesResponseSchema.parse(
      (await t.http().get('/data/countries').expect(200)).body,
    );
    expect(countries).toEqual({
      success: true,
      countries: ['DE', 'FR', 'JP', 'NL'],
      counts: { DE: 2, FR: 1, JP: 1, NL: 1 },
    });
    const stats = marketStatsResponseSchema.parse(
      (await t.http().get('/data/stats').expect(200)).body,
    );
    expect(stats.stats).toEqual({
      totalServers: 5,
      totalCountries: 4,
      averageReliability: 100,
      averagePing: Math.round((10 + 200 + 90 + 5 + 300) / 5),
    });
  });
});

describe('GET /data/servers/{id}/health', () => {
  it('should answer uptime, reliability and latency of a server', async () => {
    const response = await t.http().get(`/data/servers/${ids.fast}/health?t=1`).expect(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(serverHealthResponseSchema.parse(response.body)).toEqual({
      success: true,
      uptime: 10,
      reliability: 100,
      latency: 10,
      isStale: false,
      lastUpdated: now.toISOString(),
    });
  });

  it('should answer 404 for an unknown server or an id that is not one', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', "1' OR '1'='1"]) {
      const response = await t
        .http()
        .get(`/data/servers/${encodeURIComponent(id)}/health`)
        .expect(404);
      expect(response.body).toEqual({
        success: false,
        message: MARKET_MESSAGES.serverNotFound,
        code: 'market.server_not_found',
      });
    }
  });
});

describe('connect cooldown', () => {
  const mark = (cookie: string | null, body: object) => {
    const request = t.http().post('/data/mark-server-processing');
    if (cookie) request.set('Cookie', cookie);
    return request.send(body);
  };

  it('should answer a visitor empty lists', async () => {
    const response = await t.http().get('/data/processing-servers').expect(200);
    expect(response.body).toEqual({ success: true, processingServers: [], processingDetails: {} });
  });

  it('should refuse a visitor, a node account and another client uuid', async () => {
    await mark(null, { serverId: ids.fast, clientUUID: client.uuid }).expect(401);
    const asNode = await mark(node.cookie, { serverId: ids.fast, clientUUID: node.uuid }).expect(
      403,
    );
    expect(asNode.body.message).toBe(MARKET_MESSAGES.clientsOnly);
    await mark(client.cookie, { serverId: ids.fast, clientUUID: otherClient.uuid }).expect(403);
  });

  it('should refuse bad bodies and servers that cannot be marked', async () => {
    expect((await mark(client.cookie, { clientUUID: client.uuid }).expect(400)).body.message).toBe(
      MARKET_MESSAGES.serverIdRequired,
    );
    expect((await mark(client.cookie, { serverId: ids.fast }).expect(400)).body.message).toBe(
      MARKET_MESSAGES.clientUuidRequired,
    );
    await mark(client.cookie, { serverId: ids.fast, clientUUID: client.uuid, x: 1 }).expect(400);
    for (const serverId of ['nope', ids.hidden, ids.noAddress]) {
      await mark(client.cookie, { serverId, clientUUID: client.uuid }).expect(404);
    }
    const full = await mark(client.cookie, { serverId: ids.full, clientUUID: client.uuid }).expect(
      409,
    );
    expect(full.body.message).toBe(MARKET_MESSAGES.serverUnavailable);
  });

  it('should mark a server for 60 s for this client only, and exempt premium servers', async () => {
    const marked = markServerProcessingResponseSchema.parse(
      (
        await mark(client.cookie, {
          serverId: ids.fast.toUpperCase(),
          clientUUID: client.uuid.toUpperCase(),
        }).expect(200)
      ).body,
    );
    expect(marked).toMatchObject({
      processingServers: [ids.fast],
      processingDetails: { [ids.fast]: { remainingSeconds: CONNECT_COOLDOWN_SECONDS } },
    });
    const premium = await mark(client.cookie, {
      serverId: ids.premium,
      clientUUID: client.uuid,
    }).expect(200);
    expect(premium.body.message).toBe(MARKET_MESSAGES.premiumExempt);
    expect(premium.body.processingServers).toEqual([ids.fast]);

    now = new Date(now.getTime() + 20_000);
    // Clicking again does not prolong the cooldown.
    await mark(client.cookie, { serverId: ids.fast, clientUUID: client.uuid }).expect(200);
    const polled = processingServersResponseSchema.parse(
      (await t.http().get('/data/processing-servers').set('Cookie', client.cookie).expect(200))
        .body,
    );
    expect(polled.processingDetails).toEqual({ [ids.fast]: { remainingSeconds: 40 } });
    const other = await t
      .http()
      .get('/data/processing-servers')
      .set('Cookie', otherClient.cookie)
      .expect(200);
    expect(other.body.processingServers).toEqual([]);

    now = new Date(now.getTime() + 40_000);
    const after = await t
      .http()
      .get('/data/processing-servers')
      .set('Cookie', client.cookie)
      .expect(200);
    expect(after.body.processingServers).toEqual([]);
    // The sweep deletes what ran out.
    await t.app.get(ReliabilitySweepJob).runOnce();
    expect(await t.db.query('SELECT * FROM market_processing')).toEqual([]);
  });
});

describe('premium servers', () => {
  it('should list the admin servers for a signed-in user only', async () => {
    await t.http().get('/admin-servers').expect(401);
    const response = await t.http().get('/admin-servers').set('Cookie', client.cookie).expect(200);
    expect(adminServersResponseSchema.parse(response.body)).toEqual([
      { id: ids.premium, ip: 'node.example', availableUuids: 25, hasAvailable: true },
    ]);
  });

  it('should tell other domains which servers are premium and who runs them', async () => {
    const premium = t.app.get(PremiumServers);
    expect(await premium.isPremium(ids.premium)).toBe(true);
    expect(await premium.isPremium(ids.fast)).toBe(false);
    expect(await premium.premiumAmong([ids.fast, ids.premium])).toEqual(new Set([ids.premium]));
    expect(await premium.platformOperatorUuid()).toBe(operator.uuid);
  });
});

describe('reliability decay', () => {
  it('should move a server without reports last after the sweep, then hide it', async () => {
    const order = async () =>
      (await t.http().get('/data/servers?country=DE').expect(200)).body.servers.map(
        (s: { id: string }) => s.id,
      );
    expect(await order()).toEqual([ids.fast, ids.full]);
    await t.db.query(`DELETE FROM server_clients WHERE server_id = $1`, [ids.full]);
    expect(await order()).toEqual([ids.full, ids.fast]);

    // 90 minutes without a report for the Full House server; Fast Frankfurt keeps reporting.
    now = new Date(now.getTime() + 90 * 60_000);
    await t.db.query(`UPDATE servers SET last_report_at = $2 WHERE id = $1`, [ids.fast, now]);
    expect(await order()).toEqual([ids.full, ids.fast]);
    await t.app.get(ReliabilitySweepJob).runOnce();
    expect(await order()).toEqual([ids.fast, ids.full]);
    const stale = await t.http().get(`/data/servers/${ids.full}/health`).expect(200);
    expect(stale.body).toMatchObject({ isStale: true, reliability: 0 });

    now = new Date(now.getTime() + 60 * 60_000);
    await t.db.query(`UPDATE servers SET last_report_at = $2 WHERE id = $1`, [ids.fast, now]);
    await t.app.get(ReliabilitySweepJob).runOnce();
    expect(await order()).toEqual([ids.fast]);
  });
});
