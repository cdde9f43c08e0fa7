import { MARKET_ORDERS, MARKET_SORTS, type MarketServer, type VpsTierId } from '@scn/proto';
import {
  allowClients,
  insertAccount,
  insertServers,
  promote,
  type ServerFixture,
} from '../../test/support/market-fixtures';
import {
  capacityOf,
  expected,
  type Generated,
  HOUR,
  type Model,
  modelOf,
  OPERATOR_EMAIL,
  promotedNow,
  random,
  shown,
  useMarketDatabase,
} from '../../test/support/market-model';
import { depositSsl } from '../../test/support/ledger';
import type { MarketPageQuery } from './market-query';

/**
 * The market's order, filters and pages on a generated set of servers, against a model of
 * what the spec says computed here without the database's help.
 */
const market = useMarketDatabase(new Date('2026-11-20T12:00:00.000Z'));
const { clock } = market;
/** What generated promotions cost, in turn (micro-SSL); every fourth has none recorded. */
const PROMOTION_COSTS: ReadonlyArray<bigint | undefined> = [undefined, 1000n, 2000n, 3000n].map(
  (ssl) => (ssl === undefined ? undefined : ssl * 1_000_000n),
);

/** Every page of a query, one after the other. */
async function allPages(
  query: Partial<MarketPageQuery>,
  limit: number,
): Promise<{ servers: MarketServer[]; totalPages: number; total: number }> {
  const servers: MarketServer[] = [];
  const first = (await market.service.servers({ page: 1, limit, ...query }, null)).value;
  servers.push(...first.servers);
  for (let page = 2; page <= first.totalPages; page += 1) {
    const next = (await market.service.servers({ page, limit, ...query }, null)).value;
    expect(next.totalPages).toBe(first.totalPages);
    servers.push(...next.servers);
  }
  return { servers, totalPages: first.totalPages, total: first.total };
}

describe('market order and filters on a generated set', () => {
  let models: Model[] = [];
  let premiumOwner = '';

  beforeAll(async () => {
    const next = random(20261120);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    premiumOwner = await insertAccount(market.db, { email: OPERATOR_EMAIL });
    const owners = [
      premiumOwner,
      ...(await Promise.all(Array.from({ length: 6 }, () => insertAccount(market.db)))),
    ];
    const start = clock.at;
    // Two operators stake, one before its servers are listed, one after.
    const stakers = new Set([owners[1]!, owners[3]!]);
    await depositSsl(market.db.url, owners[1]!, 5, 'stake');
    const generated: Generated[] = [];
    for (let i = 0; i < 400; i += 1) {
      const ageMinutes = pick([0, 0, 1, 5, 30, 59, 61, 90, 119, 125, 180, 26 * 60, 100 * 60, -1]);
      const tier = pick<VpsTierId | null>(['tier1', 'tier2', 'tier3', 'tier4', null]);
      const fixture: ServerFixture & { id: string } = {
        id: `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
        ownerUuid: i % 40 === 0 ? premiumOwner : pick(owners.slice(1)),
        name: `${pick(['Alpha', 'Bravo', 'Charlie', 'Delta'])} ${i}`,
        source: tier === null ? 'manual' : 'agent',
        tier,
        country: pick(['DE', 'US', 'NL', 'JP', 'FR', null]),
        location: pick(['Frankfurt', 'New York', 'Amsterdam', null]),
        host: next() < 0.05 ? null : `n${i}.${pick(['alpha', 'edge', 'fast'])}.example`,
        pingMs: next() < 0.1 ? null : pick([10, 20, 35, 35, 80, 150, 300]),
        uptimeSeconds: pick([0, 3599, 3600, 7200, 86_400, 360_000]) + Math.floor(next() * 60),
        reliabilityAtReport: pick([100, 100, 100, 99, 97, 96, 95, 94, 60, 40]),
        lastReportAt: ageMinutes < 0 ? null : new Date(start.getTime() - ageMinutes * 60_000),
        bannedAt: next() < 0.04 ? new Date(start.getTime() - 86_400_000) : null,
        coreState: next() < 0.05 ? 'failed' : pick(['running', null]),
        createdAt: new Date(start.getTime() - i * 60_000),
        // A manual server is listed by its own link (nodes/server-address.ts); agents have none.
        vlessString: tier === null ? `vless://u@n${i}.example:443` : null,
      };
      const capacity = capacityOf(tier);
      const allowed = next() < 0.12 ? capacity : Math.floor(next() * 3);
      const promotion =
        next() < 0.1
          ? {
              at: new Date(start.getTime() - Math.floor(next() * 10) * HOUR),
              until: new Date(start.getTime() + pick([-1, 1, 48]) * HOUR),
              // docs/product/states.md#market-and-account-states: higher promotions first (no draw of the generator: the same servers).
              micro: PROMOTION_COSTS[i % PROMOTION_COSTS.length],
            }
          : null;
      generated.push({ fixture, allowed, promotion, staker: stakers.has(fixture.ownerUuid) });
    }
    await insertServers(
      market.db,
      generated.map((g) => g.fixture),
      start,
    );
    for (const g of generated) {
      await allowClients(market.db, g.fixture.id, g.allowed);
      if (g.promotion)
        await promote(
          market.db,
          g.fixture.id,
          g.promotion.at,
          g.promotion.until,
          start,
          g.promotion.micro ?? null,
        );
    }
    await depositSsl(market.db.url, owners[3]!, 1, 'stake');
    // The minute sweep brings decay and promotions up to clock.at.
    await market.refresh.refresh();
    models = generated.map((g) => modelOf(g, premiumOwner, clock.at));
  });

  it('should cover every case the rules tell apart', () => {
    const listed = models.filter((m) => m.listed);
    expect(listed.length).toBeGreaterThan(100);
    expect(models.length - listed.length).toBeGreaterThan(20);
    expect(listed.some((m) => m.disabled && m.free === 0)).toBe(true);
    expect(listed.some((m) => m.disabled && m.stale)).toBe(true);
    expect(listed.some((m) => m.premium)).toBe(true);
    expect(listed.some((m) => !m.premium && promotedNow(m, clock.at) && !m.disabled)).toBe(true);
    expect(listed.some((m) => m.promotedAt && !promotedNow(m, clock.at))).toBe(true);
    // Stakers and others that tie on every other key, so the stakers-first rule decides.
    const key = (m: Model) => `${m.disabled}|${m.premium}|${shown(m)}|${m.ping}`;
    const tied = listed.filter(
      (m) => m.staker && listed.some((o) => !o.staker && key(o) === key(m)),
    );
    expect(tied.length).toBeGreaterThan(5);
  });

  it('should list exactly the listed servers in the default order, page after page', async () => {
    const want = expected(models, {}, clock.at).map((m) => m.id);
    const got = await allPages({}, 7);
    expect(got.servers.map((s) => s.id)).toEqual(want);
    expect(got.total).toBe(want.length);
    expect(got.totalPages).toBe(Math.ceil(want.length / 7));
  });

  it.each(MARKET_SORTS.flatMap((sort) => MARKET_ORDERS.map((order) => [sort, order] as const)))(
    'should order by %s %s as the spec says',
    async (sort, order) => {
      const want = expected(models, { sort, order }, clock.at).map((m) => m.id);
      const got = await allPages({ sort, order }, 50);
      expect(got.servers.map((s) => s.id)).toEqual(want);
    },
  );

  it.each(['DE', 'JP', 'NL'])('should filter by country %s', async (country) => {
    const want = expected(models, { country, sort: 'ping' }, clock.at).map((m) => m.id);
    const got = await allPages({ country, sort: 'ping' }, 20);
    expect(got.servers.map((s) => s.id)).toEqual(want);
    expect(got.total).toBe(want.length);
  });

  it.each([
    'alpha',
    'FRANK',
    'edge.example',
    'new york',
    'delta 1',
    '%',
    '_',
    'Fr',
    'w ',
    '.E',
    '%_',
  ])('should search name, location and host for %j, case-insensitively', async (search) => {
    const want = expected(models, { search, sort: 'uptime', order: 'asc' }, clock.at).map(
      (m) => m.id,
    );
    const got = await allPages({ search, sort: 'uptime', order: 'asc' }, 25);
    expect(got.servers.map((s) => s.id)).toEqual(want);
    expect(got.total).toBe(want.length);
  });

  it.each(['Germany', 'آلمان', 'Германия', '德国', 'de', 'Япония', 'nether'])(
    'should find the servers of the country %j names, in any of the four languages',
    async (search) => {
      const want = expected(models, { search }, clock.at).map((m) => m.id);
      const got = await allPages({ search }, 25);
      expect(got.servers.map((s) => s.id)).toEqual(want);
      expect(got.total).toBe(want.length);
      const country = { Германия: 'DE', آلمان: 'DE', 德国: 'DE', Germany: 'DE', de: 'DE' }[search];
      if (country) {
        const inCountry = models.filter((m) => m.listed && m.country === country);
        expect(inCountry.length).toBeGreaterThan(0);
        expect(got.servers.map((s) => s.id)).toEqual(
          expect.arrayContaining(inCountry.map((m) => m.id)),
        );
      }
    },
  );

  it('should combine search and country', async () => {
    const query = { search: 'bravo', country: 'US' };
    const want = expected(models, query, clock.at).map((m) => m.id);
    expect((await allPages(query, 10)).servers.map((s) => s.id)).toEqual(want);
  });

  it('should show each server as the spec says', async () => {
    const { servers } = await allPages({}, 100);
    const byId = new Map(models.map((m) => [m.id, m]));
    for (const server of servers) {
      const m = byId.get(server.id)!;
      expect(server.isDisabled).toBe(m.disabled);
      expect(server.controls.connectButton).toBe(!m.disabled);
      expect(server.reliability).toBe(shown(m));
      expect(server.availableUuids).toBe(m.free);
      expect(server.hasAvailable).toBe(m.free > 0);
      expect(server.isStale).toBe(m.stale);
      expect(server.isAdminServer).toBe(m.premium);
      expect(server.isPromoted).toBe(m.premium || promotedNow(m, clock.at));
      // Servers without the agent are free, with shared credentials.
      expect(server.price).toBe(server.serverType === 'manual' ? 0 : 10);
      expect(server.sharedCredentials).toBe(server.serverType === 'manual');
      expect(server.vlessLink).toBe('');
      expect(server.vlessString).toBe('');
      if (m.premium) {
        expect(server.name).toMatch(/^Premium Server \d+$/);
        expect(server.country).toBe('Premium Network');
        expect(server.location).toBe('Premium');
        expect(server.countryCode).toBe(m.country);
      } else {
        expect(server.name).toBe(m.name);
        expect(server.country).toBe(m.country ?? '');
      }
    }
  });

  it('should count countries and stats over the listed servers', async () => {
    const listed = models.filter((m) => m.listed);
    const counts: Record<string, number> = {};
    for (const m of listed) if (m.country) counts[m.country] = (counts[m.country] ?? 0) + 1;
    const countries = await market.service.countries();
    expect(countries.counts).toEqual(counts);
    expect(countries.countries).toEqual(Object.keys(counts).sort());
    const pings = listed.filter((m) => m.ping !== null).map((m) => m.ping!);
    expect(await market.service.stats()).toEqual({
      totalServers: listed.length,
      totalCountries: Object.keys(counts).length,
      averageReliability:
        Math.round((listed.reduce((sum, m) => sum + m.reliability, 0) * 10) / listed.length) / 10,
      averagePing: Math.round(pings.reduce((a, b) => a + b, 0) / pings.length),
    });
  });

  it('should answer an empty page past the last one, with the real totals', async () => {
    const response = (await market.service.servers({ page: 1000, limit: 20 }, null)).value;
    expect(response.servers).toEqual([]);
    expect(response.total).toBe(models.filter((m) => m.listed).length);
  });

  it('should keep the counters equal to a fresh count through deletes, moves and slot changes', async () => {
    const [first, second, third] = models.filter((m) => m.listed);
    await market.db.query(`DELETE FROM servers WHERE id = $1`, [first!.id]);
    await market.db.query(`UPDATE servers SET country = 'CA' WHERE id = $1`, [second!.id]);
    await market.db.query(
      `UPDATE servers SET ping_ms = ping_ms + 7, last_report_at = $2 WHERE id = $1`,
      [third!.id, clock.at],
    );
    await market.db.query(`DELETE FROM server_clients WHERE server_id = ANY($1::uuid[])`, [
      models.slice(0, 50).map((m) => m.id),
    ]);
    const counters = await market.db.query(
      `SELECT country, listed, reliability_sum::int AS reliability_sum, ping_sum::int AS ping_sum, ping_count
       FROM market_counts WHERE listed <> 0 OR ping_count <> 0 ORDER BY country`,
    );
    const fresh = await market.db.query(
      `SELECT COALESCE(country, '') AS country, count(*)::int AS listed, sum(reliability)::int AS reliability_sum,
              COALESCE(sum(ping_ms), 0)::int AS ping_sum, count(ping_ms)::int AS ping_count
       FROM market_listings WHERE listed GROUP BY 1 ORDER BY 1`,
    );
    expect(counters).toEqual(fresh);
    const allowed = await market.db.query(
      `SELECT l.server_id FROM market_listings l
       WHERE l.allowed_clients <> (SELECT count(*) FROM server_clients c WHERE c.server_id = l.server_id)`,
    );
    expect(allowed).toEqual([]);
  });
});
