import {
  MARKET_ORDERS,
  MARKET_SORTS,
  type MarketOrder,
  type MarketServer,
  type MarketSort,
  VPS_TIERS,
  type VpsTierId,
} from '@scn/proto';
import { Client } from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import {
  allowClients,
  insertAccount,
  insertServers,
  promote,
  type ServerFixture,
} from '../../test/support/market-fixtures';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import type { Clock } from '../common/clock';
import type { AppConfig } from '../config/app-config';
import { dataSourceOptions } from '../database/data-source';
import type { RealtimeGateway } from '../realtime/realtime.gateway';
import { currentReliability } from '../reliability/reliability';
import type { MarketPageQuery } from './market-query';
import { MarketRefresh } from './market-refresh';
import { MarketRepository } from './market.repository';
import { MarketService } from './market.service';

const HOUR = 3_600_000;
const OPERATOR_EMAIL = 'platform@scn.test';

let db: TestDatabase;
let dataSource: DataSource;
let now = new Date('2026-11-20T12:00:00.000Z');
const clock: Clock = { now: () => now };
const config = {
  platformOperatorEmail: OPERATOR_EMAIL,
  launchPeriodEndsAt: new Date('2025-12-31T23:59:59.999Z'),
  marketPageCacheMs: 1000,
} as AppConfig;
const realtime = { serverListUpdated: () => undefined } as unknown as RealtimeGateway;
let repository: MarketRepository;
let service: MarketService;
let refresh: MarketRefresh;

beforeAll(async () => {
  db = await createTestDatabase();
  dataSource = await new DataSource(dataSourceOptions(db.url)).initialize();
  repository = new MarketRepository(dataSource);
  service = new MarketService(repository, clock, config);
  refresh = new MarketRefresh(repository, clock, config, realtime);
  await refresh.syncPlatformOperator();
});
afterAll(async () => {
  await dataSource.destroy();
  await db.drop();
});

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** What the spec says about one server, computed here without the database's help. */
interface Model {
  id: string;
  name: string;
  location: string | null;
  host: string | null;
  country: string | null;
  premium: boolean;
  /** Added without the agent: costs nothing (issue 15 §4). */
  priceFree: boolean;
  promotedAt: Date | null;
  promotedUntil: Date | null;
  reliability: number;
  stale: boolean;
  listed: boolean;
  disabled: boolean;
  ping: number | null;
  uptimeHours: number;
  free: number;
}

interface Generated {
  fixture: ServerFixture & { id: string };
  allowed: number;
  promotion: { at: Date; until: Date } | null;
}

function capacityOf(tier: VpsTierId | null | undefined): number {
  // Manually added servers count as the smallest tier (market migration).
  return (VPS_TIERS.find((t) => t.id === tier) ?? VPS_TIERS[0]!).maxClients;
}

function modelOf(g: Generated, premiumOwner: string, at: Date): Model {
  const f = g.fixture;
  const lastReportAt = f.lastReportAt === undefined ? at : f.lastReportAt;
  const reliability = currentReliability(
    {
      reliabilityAtReport: f.reliabilityAtReport ?? 100,
      lastReportAt,
      lastCreditedAt: null,
      belowThresholdSince: null,
      bannedAt: null,
    },
    at,
  );
  const stale = lastReportAt === null || at.getTime() - lastReportAt.getTime() > HOUR;
  const host = f.host === undefined ? 'node.example' : f.host;
  const free = Math.max(0, capacityOf(f.tier === undefined ? 'tier2' : f.tier) - g.allowed);
  const coreDown = ['stopped', 'failed', 'absent'].includes(f.coreState ?? 'running');
  // spec 02 §4: hidden below 95, banned, or without an address.
  const listed = !f.bannedAt && host !== null && reliability >= 95;
  // spec 01 §4: no free slot, not available (stale or below 50), or unavailable.
  const disabled = free === 0 || stale || reliability < 50 || coreDown;
  return {
    id: f.id,
    name: f.name ?? 'Node',
    location: f.location === undefined ? 'Frankfurt' : f.location,
    host,
    country: f.country === undefined ? 'DE' : f.country,
    premium: f.ownerUuid === premiumOwner,
    priceFree: f.source === 'manual',
    promotedAt: g.promotion?.at ?? null,
    promotedUntil: g.promotion?.until ?? null,
    reliability,
    stale,
    listed,
    disabled,
    ping: f.pingMs === undefined ? 40 : f.pingMs,
    uptimeHours: Math.floor((f.uptimeSeconds ?? 36_000) / 3600),
    free,
  };
}

/** spec 01 §4: the reliability shown (and sorted by): 0 when disabled, 100 for admin servers. */
function shown(m: Model): number {
  if (m.disabled) return 0;
  return m.premium ? 100 : m.reliability;
}

function promotedNow(m: Model, at: Date): boolean {
  return m.promotedUntil !== null && m.promotedUntil.getTime() > at.getTime();
}

/** Lower ping is better; an unmeasured ping is worse than any measured one. */
function pingBetter(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a - b;
}

/**
 * spec 01 §9, written as a comparator: disabled last; then promoted first (admin servers, then
 * the most recently promoted); then the chosen field, best or worst first; then reliability
 * descending and ping ascending; then the id.
 */
function compare(a: Model, b: Model, sort: MarketSort | undefined, order: MarketOrder, at: Date) {
  if (a.disabled !== b.disabled) return a.disabled ? 1 : -1;
  const rank = (m: Model) => (m.premium ? 0 : promotedNow(m, at) ? 1 : 2);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (rank(a) === 1) {
    const byPromotion = b.promotedAt!.getTime() - a.promotedAt!.getTime();
    if (byPromotion !== 0) return byPromotion;
  }
  const best = order === 'desc';
  let byField = 0;
  if (sort === 'reliability') byField = best ? shown(b) - shown(a) : shown(a) - shown(b);
  if (sort === 'ping') byField = best ? pingBetter(a.ping, b.ping) : pingBetter(b.ping, a.ping);
  if (sort === 'uptime')
    byField = best ? b.uptimeHours - a.uptimeHours : a.uptimeHours - b.uptimeHours;
  // After the launch period (this suite's clock): free servers first when best first.
  if (sort === 'price') {
    byField = best
      ? Number(b.priceFree) - Number(a.priceFree)
      : Number(a.priceFree) - Number(b.priceFree);
  }
  if (byField !== 0) return byField;
  if (shown(a) !== shown(b)) return shown(b) - shown(a);
  const byPing = pingBetter(a.ping, b.ping);
  if (byPing !== 0) return byPing;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function expected(models: readonly Model[], query: Partial<MarketPageQuery>, at: Date): Model[] {
  const term = query.search?.toLowerCase();
  return models
    .filter((m) => m.listed)
    .filter((m) => !query.country || m.country === query.country)
    .filter(
      (m) =>
        !term || [m.name, m.location, m.host].some((field) => field?.toLowerCase().includes(term)),
    )
    .sort((a, b) => compare(a, b, query.sort, query.order ?? 'desc', at));
}

/** Every page of a query, one after the other. */
async function allPages(
  query: Partial<MarketPageQuery>,
  limit: number,
): Promise<{ servers: MarketServer[]; totalPages: number; total: number }> {
  const servers: MarketServer[] = [];
  const first = (await service.servers({ page: 1, limit, ...query }, null)).value;
  servers.push(...first.servers);
  for (let page = 2; page <= first.totalPages; page += 1) {
    const next = (await service.servers({ page, limit, ...query }, null)).value;
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
    premiumOwner = await insertAccount(db, { email: OPERATOR_EMAIL });
    const owners = [
      premiumOwner,
      ...(await Promise.all(Array.from({ length: 6 }, () => insertAccount(db)))),
    ];
    const start = now;
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
      };
      const capacity = capacityOf(tier);
      const allowed = next() < 0.12 ? capacity : Math.floor(next() * 3);
      const promotion =
        next() < 0.1
          ? {
              at: new Date(start.getTime() - Math.floor(next() * 10) * HOUR),
              until: new Date(start.getTime() + pick([-1, 1, 48]) * HOUR),
            }
          : null;
      generated.push({ fixture, allowed, promotion });
    }
    await insertServers(
      db,
      generated.map((g) => g.fixture),
      start,
    );
    for (const g of generated) {
      await allowClients(db, g.fixture.id, g.allowed);
      if (g.promotion) await promote(db, g.fixture.id, g.promotion.at, g.promotion.until, start);
    }
    // The minute sweep brings decay and promotions up to now.
    await refresh.refresh();
    models = generated.map((g) => modelOf(g, premiumOwner, now));
  });

  it('should cover every case the rules tell apart', () => {
    const listed = models.filter((m) => m.listed);
    expect(listed.length).toBeGreaterThan(100);
    expect(models.length - listed.length).toBeGreaterThan(20);
    expect(listed.some((m) => m.disabled && m.free === 0)).toBe(true);
    expect(listed.some((m) => m.disabled && m.stale)).toBe(true);
    expect(listed.some((m) => m.premium)).toBe(true);
    expect(listed.some((m) => !m.premium && promotedNow(m, now) && !m.disabled)).toBe(true);
    expect(listed.some((m) => m.promotedAt && !promotedNow(m, now))).toBe(true);
  });

  it('should list exactly the listed servers in the default order, page after page', async () => {
    const want = expected(models, {}, now).map((m) => m.id);
    const got = await allPages({}, 7);
    expect(got.servers.map((s) => s.id)).toEqual(want);
    expect(got.total).toBe(want.length);
    expect(got.totalPages).toBe(Math.ceil(want.length / 7));
  });

  it.each(MARKET_SORTS.flatMap((sort) => MARKET_ORDERS.map((order) => [sort, order] as const)))(
    'should order by %s %s as the spec says',
    async (sort, order) => {
      const want = expected(models, { sort, order }, now).map((m) => m.id);
      const got = await allPages({ sort, order }, 50);
      expect(got.servers.map((s) => s.id)).toEqual(want);
    },
  );

  it.each(['DE', 'JP', 'NL'])('should filter by country %s', async (country) => {
    const want = expected(models, { country, sort: 'ping' }, now).map((m) => m.id);
    const got = await allPages({ country, sort: 'ping' }, 20);
    expect(got.servers.map((s) => s.id)).toEqual(want);
    expect(got.total).toBe(want.length);
  });

  it.each(['alpha', 'FRANK', 'edge.example', 'new york', 'delta 1', '%', '_'])(
    'should search name, location and host for %j, case-insensitively',
    async (search) => {
      const want = expected(models, { search, sort: 'uptime', order: 'asc' }, now).map((m) => m.id);
      const got = await allPages({ search, sort: 'uptime', order: 'asc' }, 25);
      expect(got.servers.map((s) => s.id)).toEqual(want);
      expect(got.total).toBe(want.length);
    },
  );

  it('should combine search and country', async () => {
    const query = { search: 'bravo', country: 'US' };
    const want = expected(models, query, now).map((m) => m.id);
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
      expect(server.isPromoted).toBe(m.premium || promotedNow(m, now));
      // issue 15 §4: servers without the agent are free, with shared credentials.
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
    const countries = await service.countries();
    expect(countries.counts).toEqual(counts);
    expect(countries.countries).toEqual(Object.keys(counts).sort());
    const pings = listed.filter((m) => m.ping !== null).map((m) => m.ping!);
    expect(await service.stats()).toEqual({
      totalServers: listed.length,
      totalCountries: Object.keys(counts).length,
      averageReliability:
        Math.round((listed.reduce((sum, m) => sum + m.reliability, 0) * 10) / listed.length) / 10,
      averagePing: Math.round(pings.reduce((a, b) => a + b, 0) / pings.length),
    });
  });

  it('should answer an empty page past the last one, with the real totals', async () => {
    const response = (await service.servers({ page: 1000, limit: 20 }, null)).value;
    expect(response.servers).toEqual([]);
    expect(response.total).toBe(models.filter((m) => m.listed).length);
  });

  it('should keep the counters equal to a fresh count through deletes, moves and slot changes', async () => {
    const [first, second, third] = models.filter((m) => m.listed);
    await db.query(`DELETE FROM servers WHERE id = $1`, [first!.id]);
    await db.query(`UPDATE servers SET country = 'CA' WHERE id = $1`, [second!.id]);
    await db.query(`UPDATE servers SET ping_ms = ping_ms + 7, last_report_at = $2 WHERE id = $1`, [
      third!.id,
      now,
    ]);
    await db.query(`DELETE FROM server_clients WHERE server_id = ANY($1::uuid[])`, [
      models.slice(0, 50).map((m) => m.id),
    ]);
    const counters = await db.query(
      `SELECT country, listed, reliability_sum::int AS reliability_sum, ping_sum::int AS ping_sum, ping_count
       FROM market_counts WHERE listed <> 0 OR ping_count <> 0 ORDER BY country`,
    );
    const fresh = await db.query(
      `SELECT COALESCE(country, '') AS country, count(*)::int AS listed, sum(reliability)::int AS reliability_sum,
              COALESCE(sum(ping_ms), 0)::int AS ping_sum, count(ping_ms)::int AS ping_count
       FROM market_listings WHERE listed GROUP BY 1 ORDER BY 1`,
    );
    expect(counters).toEqual(fresh);
    const allowed = await db.query(
      `SELECT l.server_id FROM market_listings l
       WHERE l.allowed_clients <> (SELECT count(*) FROM server_clients c WHERE c.server_id = l.server_id)`,
    );
    expect(allowed).toEqual([]);
  });
});

describe('market schema helpers', () => {
  it('should give each tier the capacity of spec 01 §9 and manual servers the smallest', async () => {
    for (const tier of VPS_TIERS) {
      const [row] = await db.query<{ c: number }>(`SELECT market_capacity($1) AS c`, [tier.id]);
      expect(row?.c).toBe(tier.maxClients);
    }
    const [manual] = await db.query<{ c: number }>(`SELECT market_capacity(NULL) AS c`);
    expect(manual?.c).toBe(VPS_TIERS[0]!.maxClients);
  });
});

describe('reliability decay in the minute sweep', () => {
  it('should move a silent server last, then hide it, while reporting servers stay', async () => {
    now = new Date('2026-11-21T00:00:00.000Z');
    const owner = await insertAccount(db);
    const [silent, reporting] = await insertServers(
      db,
      [
        { ownerUuid: owner, name: 'Decay silent', pingMs: 5, country: 'IS' },
        { ownerUuid: owner, name: 'Decay reporting', pingMs: 50, country: 'IS' },
      ],
      now,
    );
    const ids = async () =>
      (await service.servers({ page: 1, limit: 20, country: 'IS' }, null)).value.servers.map(
        (s) => s.id,
      );
    expect(await ids()).toEqual([silent, reporting]);

    // 90 minutes on: the reporting server reports, the silent one does not.
    now = new Date(now.getTime() + 90 * 60_000);
    await db.query(`UPDATE servers SET last_report_at = $2 WHERE id = $1`, [reporting, now]);
    expect(await ids()).toEqual([silent, reporting]);
    expect((await refresh.refresh()).decayed).toBeGreaterThanOrEqual(1);
    expect(await ids()).toEqual([reporting, silent]);
    // Idempotent for its minute.
    expect(await refresh.refresh()).toMatchObject({ decayed: 0 });

    // Two hours without a report: 100 - 10 = 90, below 95: hidden.
    now = new Date(now.getTime() + 31 * 60_000);
    await db.query(`UPDATE servers SET last_report_at = $2 WHERE id = $1`, [reporting, now]);
    await refresh.refresh();
    expect(await ids()).toEqual([reporting]);

    // A report brings it back (fresh, at the score it earned).
    await db.query(
      `UPDATE servers SET last_report_at = $2, reliability_at_report = 96 WHERE id = $1`,
      [silent, now],
    );
    expect(await ids()).toEqual([reporting, silent]);
  });

  it('should not overwrite a report that arrives after the sweep read the server', async () => {
    const owner = await insertAccount(db);
    const [id] = await insertServers(
      db,
      [{ ownerUuid: owner, lastReportAt: new Date(now.getTime() - 3 * HOUR) }],
      now,
    );
    const [candidate] = (await repository.decayCandidates(new Date(now.getTime() - HOUR))).filter(
      (c) => c.server_id === id,
    );
    expect(candidate).toBeDefined();
    await db.query(`UPDATE servers SET last_report_at = $2 WHERE id = $1`, [id, now]);
    const applied = await repository.applyDecay([
      { serverId: id!, lastReportAt: candidate!.last_report_text, reliability: 0, stale: true },
    ]);
    expect(applied).toBe(0);
    const [row] = await db.query(
      `SELECT reliability, stale FROM market_listings WHERE server_id = $1`,
      [id],
    );
    expect(row).toEqual({ reliability: 100, stale: false });
  });
});

describe('market version and the page cache', () => {
  it('should move the version at a change of what a page shows, not at a ping or score change', async () => {
    const owner = await insertAccount(db);
    const [id] = await insertServers(db, [{ ownerUuid: owner, country: 'LU' }], now);
    const before = await repository.version();
    await db.query(
      `UPDATE servers SET ping_ms = 77, uptime_seconds = 99999, last_report_at = $2 WHERE id = $1`,
      [id, now],
    );
    expect(await repository.version()).toBe(before);
    await allowClients(db, id!, 1);
    const afterSlot = await repository.version();
    expect(afterSlot).not.toBe(before);
    await db.query(`UPDATE servers SET name = 'Renamed Luxembourg' WHERE id = $1`, [id]);
    expect(await repository.version()).not.toBe(afterSlot);
  });

  it('should show a server added or removed at once, even right after the same page was read', async () => {
    const query = { country: 'LI', page: 1, limit: 20 };
    expect((await service.servers(query, null)).value.servers).toEqual([]);
    const owner = await insertAccount(db);
    const [id] = await insertServers(db, [{ ownerUuid: owner, country: 'LI' }], now);
    expect((await service.servers(query, null)).value.servers.map((s) => s.id)).toEqual([id]);
    await db.query(`UPDATE servers SET banned_at = $2 WHERE id = $1`, [id, now]);
    expect((await service.servers(query, null)).value.servers).toEqual([]);
  });
});

describe('agent reports and the listing', () => {
  const MIN = 60_000;
  const listing = async (id: string) =>
    (
      await db.query<{ ping_ms: number | null; reliability: number; stale: boolean; at: string }>(
        `SELECT ping_ms, reliability, stale, last_report_at::text AS at, xmin::text AS version
         FROM market_listings WHERE server_id = $1`,
        [id],
      )
    )[0]!;
  const report = (id: string, at: Date, set = '') =>
    db.query(`UPDATE servers SET last_report_at = $2 ${set} WHERE id = $1`, [id, at]);

  it('should leave the listing alone while a report changes nothing a page shows', async () => {
    const owner = await insertAccount(db);
    const [id] = await insertServers(db, [{ ownerUuid: owner, country: 'MT', pingMs: 40 }], now);
    const first = await listing(id!);
    // A minute later, the same score and a ping 3 ms off: nothing to show differently.
    await report(id!, new Date(now.getTime() + MIN), ', ping_ms = 43');
    expect(await listing(id!)).toEqual(first);
    // A ping that moved by more than 5 ms and 10% is shown.
    await report(id!, new Date(now.getTime() + 2 * MIN), ', ping_ms = 60');
    expect(await listing(id!)).toMatchObject({ ping_ms: 60 });
    // So is a score that moved.
    await report(id!, new Date(now.getTime() + 3 * MIN), ', reliability_at_report = 97');
    expect(await listing(id!)).toMatchObject({ reliability: 97 });
    // And the listing's copy of the last report never trails by 5 minutes or more.
    const copied = (await listing(id!)).at;
    await report(id!, new Date(now.getTime() + 7 * MIN));
    expect((await listing(id!)).at).toBe(copied);
    await report(id!, new Date(now.getTime() + 8 * MIN));
    expect((await listing(id!)).at).not.toBe(copied);
  });

  it("should decay from the server's own last report, not the listing's older copy", async () => {
    const owner = await insertAccount(db);
    const start = now;
    const [id] = await insertServers(db, [{ ownerUuid: owner, country: 'CY' }], start);
    // A report 4 minutes later leaves the listing's copy at the start.
    await report(id!, new Date(start.getTime() + 4 * MIN));
    try {
      // 62 minutes after the start, but 58 after the last report: not stale yet.
      now = new Date(start.getTime() + 62 * MIN);
      await refresh.refresh();
      expect(await listing(id!)).toMatchObject({ reliability: 100, stale: false });
      // 65 minutes after the last report: stale.
      now = new Date(start.getTime() + 69 * MIN);
      await refresh.refresh();
      expect(await listing(id!)).toMatchObject({ stale: true });
      // A report brings it back at once.
      await report(id!, now);
      expect(await listing(id!)).toMatchObject({ reliability: 100, stale: false });
    } finally {
      now = start;
    }
  });

  it("should find a report batch's listings by key, not by scanning every listing", async () => {
    const owner = await insertAccount(db);
    const ids = await insertServers(
      db,
      Array.from({ length: 2000 }, () => ({ ownerUuid: owner, country: 'IS' })),
      now,
    );
    await db.query('ANALYZE servers, market_listings');
    const scans = await dataSource.transaction(async (manager) => {
      // This backend's scans of market_listings, counted from before the batch (the view also
      // holds what earlier transactions of the connection did and it has not reported yet).
      const counters = async () =>
        (
          (await manager.query(
            `SELECT seq_scan::int AS seq, idx_scan::int AS idx FROM pg_stat_xact_user_tables WHERE relname = 'market_listings'`,
          )) as Array<{ seq: number; idx: number }>
        )[0]!;
      const before = await counters();
      // A batch of 30 reports, whose pings moved: the trigger reads and rewrites their listings.
      await manager.query(
        `UPDATE servers SET last_report_at = $2, ping_ms = ping_ms + 20 WHERE id = ANY($1::uuid[])`,
        [ids.slice(0, 30), new Date(now.getTime() + MIN)],
      );
      const after = await counters();
      return { seq: after.seq - before.seq, idx: after.idx - before.idx };
    });
    expect(scans.seq).toBe(0);
    expect(scans.idx).toBeGreaterThan(0);
    const moved = await db.query(
      `SELECT count(*)::int AS n FROM market_listings WHERE server_id = ANY($1::uuid[]) AND ping_ms = 60`,
      [ids.slice(0, 30)],
    );
    expect(moved[0]?.n).toBe(30);
  });

  it('should not run the listing update at all for a report batch that changes no listing', async () => {
    const owner = await insertAccount(db);
    const ids = await insertServers(
      db,
      Array.from({ length: 5 }, () => ({ ownerUuid: owner, country: 'LI', pingMs: 40 })),
      now,
    );
    const report = (manager: EntityManager, minutes: number, ping: number) =>
      reportBatch(manager, ids, minutes, ping);
    const updates = await dataSource.transaction(async (manager) => {
      // An UPDATE of market_listings fires its counters' statement trigger even when it changes
      // no row: its calls show whether the listing update ran.
      await manager.query(`SET LOCAL track_functions = 'pl'`);
      const calls = async () =>
        (
          (await manager.query(
            `SELECT coalesce(sum(calls), 0)::int AS n FROM pg_stat_xact_user_functions WHERE funcname = 'market_listings_count_updated'`,
          )) as Array<{ n: number }>
        )[0]!.n;
      const before = await calls();
      // A minute later, the same score and a ping 2 ms off: nothing a page shows.
      await report(manager, 1, 42);
      const quiet = (await calls()) - before;
      await report(manager, 2, 90);
      return { quiet, moved: (await calls()) - before };
    });
    expect(updates).toEqual({ quiet: 0, moved: 1 });
    expect(await listedPings(ids)).toEqual([90]);
  });

  it("should check a report batch against its listings without joining the batch's old rows to its new rows row by row", async () => {
    const owner = await insertAccount(db);
    const ids = await insertServers(
      db,
      Array.from({ length: 40 }, () => ({ ownerUuid: owner, country: 'MT', pingMs: 40 })),
      now,
    );
    const report = (client: Client, minutes: number) => reportBatch(client, ids, minutes, 41);
    // auto_explain hands this session the executed plans of the trigger's statements.
    const client = new Client({ connectionString: db.url });
    await client.connect();
    try {
      await report(client, 1);
      const plans: PlanNode[] = [];
      client.on('notice', (notice) => {
        const json = /plan:\s*(\{[\s\S]*\})\s*$/.exec(notice.message ?? '')?.[1];
        if (json) plans.push((JSON.parse(json) as { Plan: PlanNode }).Plan);
      });
      await client.query(`LOAD 'auto_explain'`);
      await client.query(
        `SET auto_explain.log_min_duration = 0; SET auto_explain.log_nested_statements = on;
         SET auto_explain.log_analyze = on; SET auto_explain.log_format = json; SET client_min_messages = log`,
      );
      // A minute later with a ping 1 ms off: no listing changes, the check alone runs.
      await report(client, 2);
      await client.query('SET client_min_messages = notice');
      const scans = plans
        .flatMap(planNodes)
        .filter((n) => n['Node Type'] === 'Named Tuplestore Scan');
      expect(scans.length).toBeGreaterThan(0);
      // Each transition table is read once; a nested loop over them read old_rows once per new row.
      expect(scans.map((n) => n['Actual Loops'])).toEqual(scans.map(() => 1));
    } finally {
      await client.end();
    }
    expect(await listedPings(ids)).toEqual([40]);
  });

  /** What an agent report batch writes that the market follows: its time and a ping. */
  function reportBatch(
    on: { query(sql: string, parameters: unknown[]): Promise<unknown> },
    ids: string[],
    minutes: number,
    ping: number,
  ): Promise<unknown> {
    return on.query(
      'UPDATE servers SET last_report_at = $2, ping_ms = $3 WHERE id = ANY($1::uuid[])',
      [ids, new Date(now.getTime() + minutes * MIN), ping],
    );
  }

  async function listedPings(ids: string[]): Promise<number[]> {
    const rows = await db.query<{ ping_ms: number }>(
      'SELECT DISTINCT ping_ms FROM market_listings WHERE server_id = ANY($1::uuid[])',
      [ids],
    );
    return rows.map((row) => row.ping_ms);
  }
});

interface PlanNode {
  'Node Type': string;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

function planNodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(planNodes)];
}
