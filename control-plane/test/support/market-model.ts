import { hasDialableAddress } from '../../src/nodes/server-address';
import {
  COUNTRY_NAMES,
  type MarketOrder,
  type MarketSort,
  isCoreDown,
  VPS_TIERS,
  type VpsTierId,
} from '@scn/proto';
import { DataSource } from 'typeorm';
import type { Clock } from '../../src/common/clock';
import type { AppConfig } from '../../src/config/app-config';
import { dataSourceOptions } from '../../src/database/data-source';
import type { MarketPageQuery } from '../../src/market/market-query';
import { MarketRefresh } from '../../src/market/market-refresh';
import { MarketRepository } from '../../src/market/market.repository';
import { MarketService } from '../../src/market/market.service';
import type { RealtimeGateway } from '../../src/realtime/realtime.gateway';
import { currentReliability } from '../../src/reliability/reliability';
import type { ServerFixture } from './market-fixtures';
import { createTestDatabase, type TestDatabase } from './test-database';

export const HOUR = 3_600_000;
export const OPERATOR_EMAIL = 'platform@scn.test';

/** A clock the spec moves: `clock.at = ...`. */
export class MovableClock implements Clock {
  constructor(public at: Date) {}
  now(): Date {
    return this.at;
  }
}

/** The market's repository, service and refresh over a database of its own, for db-specs. */
export interface MarketDb {
  db: TestDatabase;
  dataSource: DataSource;
  clock: MovableClock;
  repository: MarketRepository;
  service: MarketService;
  refresh: MarketRefresh;
}

/**
 * Creates the database before the spec's tests and drops it after them; the returned object is
 * filled in by then (read its fields inside tests, not at the top level).
 */
export function useMarketDatabase(start: Date): MarketDb {
  const market = { clock: new MovableClock(start) } as MarketDb;
  const config = {
    platformOperatorEmail: OPERATOR_EMAIL,
    launchPeriodEndsAt: new Date('2025-12-31T23:59:59.999Z'),
    marketPageCacheMs: 1000,
  } as AppConfig;
  const realtime = { serverListUpdated: () => undefined } as unknown as RealtimeGateway;
  beforeAll(async () => {
    market.db = await createTestDatabase();
    market.dataSource = await new DataSource(dataSourceOptions(market.db.url)).initialize();
    market.repository = new MarketRepository(market.dataSource);
    market.service = new MarketService(market.repository, market.clock, config);
    market.refresh = new MarketRefresh(market.repository, market.clock, config, realtime);
    await market.refresh.syncPlatformOperator();
  });
  afterAll(async () => {
    await market.dataSource.destroy();
    await market.db.drop();
  });
  return market;
}

/** A small deterministic generator, so a failure can be replayed. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** What the spec says about one server, computed here without the database's help. */
export interface Model {
  id: string;
  name: string;
  location: string | null;
  host: string | null;
  country: string | null;
  premium: boolean;
  /** Added without the agent: costs nothing. */
  priceFree: boolean;
  promotedAt: Date | null;
  promotedUntil: Date | null;
  /** What the running promotion cost, micro-SSL; null when not recorded. */
  promotionMicro: bigint | null;
  reliability: number;
  stale: boolean;
  listed: boolean;
  disabled: boolean;
  ping: number | null;
  uptimeHours: number;
  free: number;
  /** The operator's stake holds something (stakers first among equals). */
  staker: boolean;
}

export interface Generated {
  fixture: ServerFixture & { id: string };
  allowed: number;
  promotion: { at: Date; until: Date; micro?: bigint } | null;
  staker?: boolean;
}

export function capacityOf(tier: VpsTierId | null | undefined): number {
  // Manually added servers count as the smallest tier (market migration).
  return (VPS_TIERS.find((t) => t.id === tier) ?? VPS_TIERS[0]!).maxClients;
}

export function modelOf(g: Generated, premiumOwner: string, at: Date): Model {
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
  const coreDown = isCoreDown(f.coreState === undefined ? 'running' : f.coreState);
  const address = hasDialableAddress({
    source: f.source ?? 'agent',
    host,
    port: f.port === undefined ? 443 : f.port,
    vlessString: f.vlessString ?? null,
  });
  // docs/product/states.md#subscription-and-reliability-states: hidden below 95, banned, or without an address.
  const listed = !f.bannedAt && address && reliability >= 95;
  // docs/product/states.md#market-and-account-states: no free slot, not available (stale or below 50), or unavailable.
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
    promotionMicro: g.promotion?.micro ?? null,
    reliability,
    stale,
    listed,
    disabled,
    ping: f.pingMs === undefined ? 40 : f.pingMs,
    uptimeHours: Math.floor((f.uptimeSeconds ?? 36_000) / 3600),
    free,
    staker: g.staker ?? false,
  };
}

/** docs/product/states.md#market-and-account-states: the reliability shown (and sorted by): 0 when disabled, 100 for admin servers. */
export function shown(m: Model): number {
  if (m.disabled) return 0;
  return m.premium ? 100 : m.reliability;
}

export function promotedNow(m: Model, at: Date): boolean {
  return m.promotedUntil !== null && m.promotedUntil.getTime() > at.getTime();
}

/** Lower ping is better; an unmeasured ping is worse than any measured one. */
export function pingBetter(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a - b;
}

/**
 * docs/product/constants.md#market-prices-and-limits, written as a comparator: disabled last; then promoted first (admin servers, then
 * the higher promotion, then the most recently promoted: docs/product/states.md#market-and-account-states); then the chosen field, best or worst first; then reliability
 * descending and ping ascending; then stakers first; then the id.
 */
export function compare(
  a: Model,
  b: Model,
  sort: MarketSort | undefined,
  order: MarketOrder,
  at: Date,
) {
  if (a.disabled !== b.disabled) return a.disabled ? 1 : -1;
  const rank = (m: Model) => (m.premium ? 0 : promotedNow(m, at) ? 1 : 2);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (rank(a) === 1) {
    // A promotion whose cost is not recorded sorts after every recorded one (NULLS LAST).
    const paid = (m: Model) => m.promotionMicro ?? -1n;
    if (paid(a) !== paid(b)) return paid(b) > paid(a) ? 1 : -1;
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
  if (a.staker !== b.staker) return a.staker ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * docs/i18n.md "Country search": a term of two or more characters names a country when it is
 * its code or starts its name, or a word of its name, in any of the four languages.
 */
function namesCountry(term: string, code: string): boolean {
  if ([...term].length < 2) return false;
  if (term === code.toLowerCase()) return true;
  return (COUNTRY_NAMES[code] ?? []).some((name) => {
    const lower = name.toLowerCase();
    return lower.startsWith(term) || lower.includes(` ${term}`);
  });
}

export function expected(
  models: readonly Model[],
  query: Partial<MarketPageQuery>,
  at: Date,
): Model[] {
  const term = query.search?.toLowerCase();
  return models
    .filter((m) => m.listed)
    .filter((m) => !query.country || m.country === query.country)
    .filter(
      (m) =>
        !term ||
        [m.name, m.location, m.host].some((field) => field?.toLowerCase().includes(term)) ||
        (m.country !== null && namesCountry(term, m.country)),
    )
    .sort((a, b) => compare(a, b, query.sort, query.order ?? 'desc', at));
}
