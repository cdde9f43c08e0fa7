import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  type AdminServersResponse,
  canonicalUuid,
  CONNECT_COOLDOWN_SECONDS,
  MARKET_MESSAGES,
  type MarketCountriesResponse,
  type MarketServersResponse,
  type MarketStats,
  type ProcessingServersResponse,
  type ServerHealthResponse,
  type Network,
  type ReachabilityState,
} from '@scn/proto';
import type { ActiveSession } from '../auth/auth.repository';
import { AuthException } from '../auth/auth.exception';
import { isOwnAccount } from '../auth/own-account.decorator';
import { CLOCK, type Clock } from '../common/clock';
import { JsonDocument } from '../common/json-document';
import { KeyedBatcher } from '../common/keyed-batcher';
import { launchPeriodActive } from '../common/launch-period';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { MarketPageCache } from './market-page-cache';
import { type MarketPageQuery, totalPages } from './market-query';
import { toMarketServer } from './market-view';
import { MarketException } from './market.exception';
import { MarketRepository } from './market.repository';
import { SUBSCRIBED_SERVERS, type SubscribedServersReader } from './subscribed-servers';
import { VISITOR_REACHABILITY, type VisitorReachabilityReader } from './visitor-reachability';

/** A server id from a client: anything but a UUID cannot name a server, so it is not found. */
export function serverIdOf(value: string): string {
  const id = canonicalUuid(value);
  if (id === null) throw new MarketException('server_not_found');
  return id;
}

/** A visitor whose address GeoIP does not place (or a market without reachability). */
const UNKNOWN_NETWORK: Network = { country: null, asn: null, asnName: null };

/** The server market (docs/product/screens.md#the-shell-and-the-market-screens, docs/product/records.md#market-and-wallet-records, docs/product/states.md#market-and-account-states, docs/product/calls.md#market-and-account-calls, docs/product/constants.md#market-prices-and-limits): listing, stats, cooldown, health. */
@Injectable()
export class MarketService {
  private readonly pages: MarketPageCache<JsonDocument<MarketServersResponse>>;

  constructor(
    private readonly repository: MarketRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional()
    @Inject(SUBSCRIBED_SERVERS)
    private readonly subscribed: SubscribedServersReader | null = null,
    @Optional()
    @Inject(VISITOR_REACHABILITY)
    private readonly reachability: VisitorReachabilityReader | null = null,
  ) {
    this.pages = new MarketPageCache(config.marketPageCacheMs);
  }

  /**
   * The market version, read once for the requests that arrive while a read is in the database:
   * each request still gets a version read after it arrived (it waits for the next read, not the
   * one already running), so a cached page is never older than the request.
   */
  private readonly versions = new KeyedBatcher<null, string>(
    async () => new Map([['market', await this.currentVersion()]]),
    '0',
  );

  /**
   * The market version once no promotion shown as running has run out (the market
   * follows the server clock, and a cached page never shows an expired promotion): a promotion
   * that ended since the minute sweep is ended here first, which moves the version at its commit.
   */
  private async currentVersion(): Promise<string> {
    const now = this.clock.now();
    const read = await this.repository.version(now);
    if (!read.promotionsDue) return read.version;
    await this.repository.settlePromotions(now, true);
    return (await this.repository.version(now)).version;
  }

  /**
   * A market page, serialized once for every visitor who asks for it while it is current: the
   * controller sends its JSON as it is.
   */
  async servers(
    query: MarketPageQuery & { reachable?: 'works' },
    // The session's client, for per-user fields: they go on top of the cached page, which is
    // the same for every visitor.
    session: ActiveSession | null,
    // The visitor's address: whether each server works from their network goes on top too.
    address: string | null = null,
  ): Promise<JsonDocument<MarketServersResponse>> {
    const network =
      address && this.reachability ? this.reachability.networkOf(address) : UNKNOWN_NETWORK;
    const { reachable, ...asked } = query;
    // "Works from my network" is the visitor's own page: read, never cached, serialized once below.
    const cached = reachable === 'works' && this.reachability ? null : await this.page(asked);
    const value =
      cached?.value ??
      (await this.readPage({
        ...asked,
        pricesDiffer: this.pricesDiffer(),
        serverIds: await this.reachability!.workingFrom(network),
      }));
    const ids = value.servers.map((server) => server.id);
    const [subscribed, states] = await Promise.all([
      session && session.account.userType === 'client' && this.subscribed
        ? this.subscribed.subscribedAmong(session.account.uuid, ids)
        : new Set<string>(),
      network.country && this.reachability
        ? this.reachability.statesFrom(ids, network)
        : new Map<string, ReachabilityState>(),
    ]);
    if (cached && subscribed.size === 0 && states.size === 0 && !network.country) return cached;
    return new JsonDocument({
      ...value,
      network,
      servers: value.servers.map((server) => ({
        ...server,
        isSubscribed: subscribed.has(server.id),
        reachability: states.get(server.id) ?? 'unknown',
      })),
    });
  }

  /** After the launch period free servers and paid ones differ in price (sort by price). */
  private pricesDiffer(): boolean {
    return !launchPeriodActive(this.clock.now(), this.config.launchPeriodEndsAt);
  }

  private async page(asked: MarketPageQuery): Promise<JsonDocument<MarketServersResponse>> {
    const pricesDiffer = this.pricesDiffer();
    const query = { ...asked, pricesDiffer };
    const key = JSON.stringify([
      query.search ?? '',
      query.country ?? '',
      query.sort ?? '',
      query.order ?? '',
      query.page,
      query.limit,
      pricesDiffer,
    ]);
    const read = async () => new JsonDocument(await this.readPage(query));
    // Read even without the cache: it ends promotions that have run out before the page.
    const version = await this.versions.submit('market', null);
    if (this.config.marketPageCacheMs === 0) return read();
    return this.pages.read(key, version, read);
  }

  private async readPage(query: MarketPageQuery): Promise<MarketServersResponse> {
    const { total, capped, rows } = await this.repository.page(query);
    const context = {
      now: this.clock.now(),
      launchPeriodEndsAt: this.config.launchPeriodEndsAt,
    };
    return {
      success: true,
      servers: rows.map((row) => toMarketServer(row, context)),
      network: UNKNOWN_NETWORK,
      totalPages: totalPages(total, query.limit),
      total,
      totalCapped: capped,
      page: query.page,
      limit: query.limit,
    };
  }

  async countries(): Promise<MarketCountriesResponse> {
    const rows = await this.repository.countries();
    return {
      success: true,
      countries: rows.map((r) => r.country),
      counts: Object.fromEntries(rows.map((r) => [r.country, r.listed])),
    };
  }

  async stats(): Promise<MarketStats> {
    const row = await this.repository.stats();
    const listed = row.listed;
    return {
      totalServers: listed,
      totalCountries: row.countries,
      averageReliability:
        listed > 0 ? Math.round((Number(row.reliability_sum) * 10) / listed) / 10 : 0,
      averagePing: row.ping_count > 0 ? Math.round(Number(row.ping_sum) / row.ping_count) : 0,
    };
  }

  async health(serverId: string): Promise<ServerHealthResponse> {
    const row = await this.repository.listing(serverIdOf(serverId));
    if (!row) throw new MarketException('server_not_found');
    return {
      success: true,
      uptime: row.uptime_hours,
      reliability: row.sort_reliability,
      latency: row.ping_ms,
      isStale: row.stale,
      lastUpdated: row.last_report_at ? new Date(row.last_report_at).toISOString() : null,
    };
  }

  /** The session's servers in their connect cooldown; none without a session. */
  async processing(session: ActiveSession | null): Promise<ProcessingServersResponse> {
    if (!session) return { success: true, processingServers: [], processingDetails: {} };
    const now = this.clock.now();
    const marks = await this.repository.processing(session.account.uuid, now);
    return {
      success: true,
      processingServers: marks.map((m) => m.server_id),
      processingDetails: Object.fromEntries(
        marks.map((m) => [
          m.server_id,
          { remainingSeconds: Math.ceil((new Date(m.until).getTime() - now.getTime()) / 1000) },
        ]),
      ),
    };
  }

  /**
   * docs/product/states.md#market-and-account-states connect cooldown: a client's click on a non-admin server marks it processing
   * for 60 s (kept in PostgreSQL, per client: a global mark would let anyone lock every server
   * for everyone). Admin servers bypass it. Only a client account, and only for itself.
   */
  async markProcessing(
    session: ActiveSession,
    serverId: string,
    clientUuid: string,
  ): Promise<ProcessingServersResponse & { message: string }> {
    if (session.account.userType !== 'client') throw new MarketException('clients_only');
    if (!isOwnAccount(session, clientUuid)) throw new AuthException('access_denied');
    const listing = await this.repository.listing(serverIdOf(serverId));
    if (!listing || !listing.listed) throw new MarketException('server_not_found');
    if (listing.premium) {
      return { ...(await this.processing(session)), message: MARKET_MESSAGES.premiumExempt };
    }
    if (listing.disabled) throw new MarketException('server_unavailable');
    const now = this.clock.now();
    await this.repository.markProcessing(
      session.account.uuid,
      listing.server_id,
      new Date(now.getTime() + CONNECT_COOLDOWN_SECONDS * 1000),
      now,
    );
    return { ...(await this.processing(session)), message: MARKET_MESSAGES.marked };
  }

  /** docs/product/records.md#market-and-wallet-records admin servers: the listed premium servers' free slots. */
  async adminServers(): Promise<AdminServersResponse> {
    const rows = await this.repository.premiumListings();
    return rows.map((r) => ({
      id: r.id,
      ip: r.host ?? '',
      availableUuids: r.free,
      hasAvailable: r.free > 0,
    }));
  }
}
