import { Inject, Injectable, Optional } from '@nestjs/common';
import { type Locale, type Network, type ReachabilityState, SUBSCRIPTION_ROUTES } from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { PremiumServers } from '../market/premium-servers';
import { LruCache } from './feed-cache';
import { FeedInvalidation } from './feed-invalidation';
import type { FeedMemory, RememberedFeed } from './feed-memory';
import { FeedReachability } from './feed-reachability';
import type { FeedFormat } from './feed-formats/client-format';
import { type RenderedFeed, renderFeed } from './feed-formats/render-feed';
import { renderFeedPage } from './feed-formats/render-page';
import type { RenderOptions } from './feed-formats/renderers';
import {
  type FeedPages,
  feedPages,
  type FeedState,
  feedState,
  placeholderLinks,
} from './subscription-feed';
import {
  groupFile,
  subscriptionName,
  subscriptionServers,
} from '../subscriptions/subscription-links';
import { SubscriptionUrlSecrets } from '../subscriptions/subscription-url';
import { timeLeft } from '../subscriptions/subscription-view';
import {
  type FeedSighting,
  type FeedSnapshot,
  type SubscribableServer,
  SubscriptionsRepository,
} from '../subscriptions/subscriptions.repository';

/** Subscriptions whose servers are kept while LISTEN is down (their rows, by their stamp). */
const SERVERS_CACHED = 10_000;

export interface SubscriptionFeed {
  /** base64 of the links (the default format). */
  content: string;
  /** The share links (or placeholders) every format is rendered from. */
  links: string[];
  /** active, or why the links are placeholders. */
  state: FeedState;
  /** The subscription URL itself (the browser page's import buttons). */
  url: string;
  /** End of the paid time (for `subscription-userinfo: expire=`). */
  expiresAt: Date;
  /** Bytes moved over every day kept, decimal strings (`subscription-userinfo`). */
  uploadBytes: string;
  downloadBytes: string;
  /** Servers left out because they are blocked on the requester's network, and that network. */
  blocked: { names: string[]; network: string | null };
  title: string;
  /** The self-signed certificates (PEM) of the feed's TLS servers by their SHA-256 (`pcs`). */
  certificates: ReadonlyMap<string, string>;
  /**
   * Everything the links, title, certificates and blocked list were built from: the URL, the
   * subscription's state and uuid, its servers' stamp, and their order and blocked ones as seen
   * from the requester's network. Equal keys, equal feeds: the caches' key.
   */
  version: string;
}

/** The part of a feed its version decides (cached). */
type BuiltFeed = Pick<SubscriptionFeed, 'content' | 'links' | 'title' | 'certificates' | 'blocked'>;

/**
 * The subscription URL's feed (`GET /sub/<secret>`; docs/architecture.md#subscription-feed). A
 * fetch is answered from this replica's memory (FeedMemory) when it holds the subscription: the
 * memory is dropped by every commit that changes what the feed shows, on any replica (LISTEN
 * scn_feed), and an active subscription's entry lasts no longer than its paid time. Otherwise one
 * read (the subscription, its servers' stamp, its traffic and the client's network sighting in
 * one statement), plus the reachability of its servers from the requester's network when that
 * network is known. What those decide is built once and kept: the links by the feed's version,
 * each format's answer by version and format.
 */
@Injectable()
export class SubscriptionFeedService {
  private readonly urlSecrets: SubscriptionUrlSecrets;
  readonly pages: FeedPages;
  private readonly servers = new LruCache<{ stamp: string; rows: SubscribableServer[] }>(
    SERVERS_CACHED,
  );
  private readonly built: LruCache<BuiltFeed>;
  /** In UTF-16 code units of their bodies (about 2 bytes each). */
  private readonly rendered: LruCache<RenderedFeed>;

  constructor(
    private readonly repository: SubscriptionsRepository,
    private readonly premium: PremiumServers,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly reachability: FeedReachability,
    // Explicit: a `T | null` parameter's design type is Object, which Nest cannot resolve.
    @Optional()
    @Inject(FeedInvalidation)
    private readonly invalidation: FeedInvalidation | null = null,
  ) {
    this.urlSecrets = new SubscriptionUrlSecrets(config.appSecret);
    this.pages = feedPages(config.publicUrl);
    this.built = new LruCache<BuiltFeed>(config.feedCache.subscriptions);
    this.rendered = new LruCache<RenderedFeed>(
      Math.max(1, Math.floor(config.feedCache.renderedBytes / 2)),
      (answer) => answer.body.length + 64,
    );
  }

  /**
   * The feed at a subscription URL, as the requester at `address` sees it; null for unknown,
   * rotated and deleted secrets alike. A paused, unpaid or expired subscription serves
   * placeholder entries that say so and where to activate it (subscription-feed.ts), never its
   * links: the app keeps the profile and picks the servers up again once it runs.
   */
  async feed(secret: string, address: string | null = null): Promise<SubscriptionFeed | null> {
    const hash = this.urlSecrets.lookupHash(secret);
    if (!hash) return null;
    const network = this.reachability.networkOf(address);
    const sighting = this.reachability.sighting(network);
    const memory = this.invalidation?.memory ?? null;
    const now = this.clock.now();
    const remembered =
      memory?.feed(hash, now.getTime()) ?? (await this.read(hash, sighting, memory, now));
    if (!remembered) return null;
    const { snapshot, servers: all } = remembered;
    const { record } = snapshot;
    if (sighting && record.status === 'active' && sightingDue(snapshot.seen, sighting)) {
      // Answered from memory: the client's network is written as the read would have.
      await this.repository.recordClientNetwork(record.id, sighting);
      snapshot.seen = { country: sighting.country, asn: sighting.asn, at: sighting.now };
    }
    const state = feedState(record);
    const shaped =
      state === 'active'
        ? this.reachability.shape(all, network, await this.statesFrom(all, network, memory, now))
        : { servers: [...all], blocked: [], network: null };
    const label = networkLabel(shaped.network);
    const version = [
      hash,
      state,
      record.vlessUuid,
      snapshot.serversStamp,
      shaped.servers.map((s) => s.id).join(','),
      shaped.blocked.length,
      label ?? '',
    ].join('|');
    let built = this.built.get(version);
    if (!built) {
      const links =
        state === 'active'
          ? subscriptionServers(shaped.servers, record.vlessUuid).map((s) => s.vlessString)
          : placeholderLinks(state, this.pages);
      built = {
        content: groupFile(links),
        links: links.filter(Boolean),
        title: `SCN ${subscriptionName(shaped.servers.length)}`,
        certificates: state === 'active' ? certificatesOf(shaped.servers) : new Map(),
        blocked: { names: shaped.blocked, network: label },
      };
      this.built.set(version, built);
    }
    return {
      ...built,
      state,
      url: `${this.config.publicUrl}${SUBSCRIPTION_ROUTES.subscriptionUrlPrefix}${secret}`,
      expiresAt: timeLeft(record, now).expirationDate,
      uploadBytes: snapshot.uploadBytes,
      downloadBytes: snapshot.downloadBytes,
      version,
    };
  }

  /** The feed in an app's format (kept by the feed's version and the format with its options). */
  render(
    feed: SubscriptionFeed,
    format: Exclude<FeedFormat, 'html'>,
    options: RenderOptions,
  ): RenderedFeed {
    const key = `${feed.version}|${format}|${options.fakeIp ? 1 : 0}|${JSON.stringify(options.client)}`;
    let answer = this.rendered.get(key);
    if (!answer) {
      answer = renderFeed(format, feed.links, feed.title, feed.certificates, options);
      this.rendered.set(key, answer);
    }
    return answer;
  }

  /** The page for a person in a browser, in `locale` (kept like `render`; it shows the end date). */
  page(feed: SubscriptionFeed, locale: Locale): string {
    const key = `${feed.version}|html|${locale}|${feed.expiresAt.getTime()}`;
    let answer = this.rendered.get(key);
    if (!answer) {
      const body = renderFeedPage({ ...feed, dashboardUrl: this.pages.dashboardUrl, locale });
      answer = { contentType: 'text/html; charset=utf-8', extension: 'txt', body };
      this.rendered.set(key, answer);
    }
    return answer.body;
  }

  /** The database's answer, kept in `memory` unless a notification came meanwhile. */
  private async read(
    hash: string,
    sighting: FeedSighting | null,
    memory: FeedMemory | null,
    now: Date,
  ): Promise<RememberedFeed | null> {
    const epoch = memory?.epoch ?? 0;
    const snapshot: FeedSnapshot | null = await this.repository.feedSnapshot(
      hash,
      this.premium.operatorEmail,
      sighting,
    );
    if (!snapshot) return null;
    const servers = await this.serversOf(snapshot.record.id, snapshot.serversStamp);
    const { record } = snapshot;
    const remembered: RememberedFeed = {
      snapshot,
      servers,
      // docs/architecture.md#subscription-feed: a running subscription's entry ends with its
      // paid time, whether or not the billing job has run yet.
      validUntil:
        record.status === 'active'
          ? timeLeft(record, now).expirationDate.getTime()
          : Number.POSITIVE_INFINITY,
    };
    memory?.remember(hash, remembered, epoch);
    return remembered;
  }

  /** The servers' states from `network`, kept by the network and the server list. */
  private async statesFrom(
    servers: readonly SubscribableServer[],
    network: Network,
    memory: FeedMemory | null,
    now: Date,
  ): Promise<ReadonlyMap<string, ReachabilityState>> {
    if (!this.reachability.shapes(network)) return new Map();
    const ids = servers.map((s) => s.id);
    const key = `${network.country}|${network.asn ?? 0}|${ids.join(',')}`;
    const held = memory?.networkStates(key, now.getTime());
    if (held) return held;
    const epoch = memory?.epoch ?? 0;
    const states = await this.reachability.statesFrom(ids, network);
    memory?.rememberStates(key, states, now.getTime(), epoch);
    return states;
  }

  /** A subscription's servers in the client's order, read again only when their stamp moved. */
  private async serversOf(id: string, stamp: string): Promise<SubscribableServer[]> {
    const held = this.servers.get(id);
    if (held && held.stamp === stamp) return held.rows;
    const read = await this.repository.serversOf([id], this.premium.operatorEmail);
    const rows = read.get(id) ?? [];
    this.servers.set(id, { stamp, rows });
    return rows;
  }
}

/** "IR · AS44244 Irancell", or null when the network is unknown. */
export function networkLabel(network: Network | null): string | null {
  if (!network?.country) return null;
  const asn = network.asn
    ? ` · AS${network.asn}${network.asnName ? ` ${network.asnName}` : ''}`
    : '';
  return `${network.country}${asn}`;
}

/** Whether a fetch from `sighting`'s network is to be recorded over what `seen` holds. */
function sightingDue(seen: FeedSnapshot['seen'], sighting: FeedSighting): boolean {
  return (
    !seen ||
    seen.country !== sighting.country ||
    seen.asn !== sighting.asn ||
    seen.at.getTime() < sighting.refreshBefore.getTime()
  );
}

/** The servers' certificates by the SHA-256 their links pin. */
function certificatesOf(servers: readonly SubscribableServer[]): Map<string, string> {
  const certificates = new Map<string, string>();
  for (const server of servers) {
    const pin = server.inbound.certificateSha256;
    if (pin && server.certificatePem) certificates.set(pin, server.certificatePem);
  }
  return certificates;
}
