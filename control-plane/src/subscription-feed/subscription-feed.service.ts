import { Inject, Injectable } from '@nestjs/common';
import { type Locale, type Network, SUBSCRIPTION_ROUTES } from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { PremiumServers } from '../market/premium-servers';
import { LruCache } from './feed-cache';
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
  type SubscribableServer,
  SubscriptionsRepository,
} from '../subscriptions/subscriptions.repository';

/** Subscriptions whose servers are kept (their rows, by the stamp they were read at). */
const SERVERS_CACHED = 10_000;
/** Feeds whose links are kept. */
const FEEDS_CACHED = 10_000;
/** Rendered answers kept, in UTF-16 code units of their bodies (about 2 bytes each). */
const RENDERED_CACHED_UNITS = 16 * 1024 * 1024;

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
 * The subscription URL's feed (`GET /sub/<secret>`; docs/architecture.md#subscription-feed): one
 * read per request (the subscription, its servers' stamp, its traffic and the client's network
 * sighting in one statement), plus the reachability of its servers from the requester's network
 * when that network is known. What those decide is built once and kept: the servers' rows by
 * their stamp, the links by the feed's version, each format's answer by version and format.
 * Every replica keeps its own; a change on any replica changes the stamp every replica reads at
 * the next request, so no cache is ever stale.
 */
@Injectable()
export class SubscriptionFeedService {
  private readonly urlSecrets: SubscriptionUrlSecrets;
  readonly pages: FeedPages;
  private readonly servers = new LruCache<{ stamp: string; rows: SubscribableServer[] }>(
    SERVERS_CACHED,
  );
  private readonly built = new LruCache<BuiltFeed>(FEEDS_CACHED);
  private readonly rendered = new LruCache<RenderedFeed>(
    RENDERED_CACHED_UNITS,
    (answer) => answer.body.length + 64,
  );

  constructor(
    private readonly repository: SubscriptionsRepository,
    private readonly premium: PremiumServers,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly reachability: FeedReachability,
  ) {
    this.urlSecrets = new SubscriptionUrlSecrets(config.appSecret);
    this.pages = feedPages(config.publicUrl);
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
    const snapshot = await this.repository.feedSnapshot(
      hash,
      this.premium.operatorEmail,
      this.reachability.sighting(network),
    );
    if (!snapshot) return null;
    const { record } = snapshot;
    const all = await this.serversOf(record.id, snapshot.serversStamp);
    const state = feedState(record);
    const shaped =
      state === 'active'
        ? await this.reachability.shape(all, network)
        : { servers: all, blocked: [], network: null };
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
      expiresAt: timeLeft(record, this.clock.now()).expirationDate,
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

/** The servers' certificates by the SHA-256 their links pin. */
function certificatesOf(servers: readonly SubscribableServer[]): Map<string, string> {
  const certificates = new Map<string, string>();
  for (const server of servers) {
    const pin = server.inbound.certificateSha256;
    if (pin && server.certificatePem) certificates.set(pin, server.certificatePem);
  }
  return certificates;
}
