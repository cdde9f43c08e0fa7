import { Inject, Injectable } from '@nestjs/common';
import {
  canonicalUuid,
  type Network,
  type Subscription,
  type SubscriptionActionResponse,
  type SubscriptionCreationResponse,
  type SubscriptionQrCodesResponse,
  SUBSCRIPTION_ROUTES,
  subscriptionFileName,
  subscriptionRawFileName,
  type SubscriptionServer,
} from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import { FeedReachability } from './feed-reachability';
import { launchPeriodActive } from '../common/launch-period';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { Transaction } from '../database/transaction-runner';
import { PremiumServers } from '../market/premium-servers';
import { qrDataUrl } from '../common/qr/qr-code';
import { TrafficRepository } from '../traffic/traffic.repository';
import {
  type FeedPages,
  feedPages,
  type FeedState,
  feedState,
  placeholderLinks,
} from './subscription-feed';
import {
  groupFile,
  linkUuid,
  rawFile,
  subscriptionName,
  subscriptionServers,
} from './subscription-links';
import { type IssuedUrlSecret, SubscriptionUrlSecrets } from './subscription-url';
import { type ServerHistory, subscriptionView, timeLeft } from './subscription-view';
import {
  type SubscribableServer,
  type SubscriptionRecord,
  SubscriptionsRepository,
} from './subscriptions.repository';
import { SubscriptionsException } from './subscriptions.exception';
import { ServerWithdrawalsRepository } from './server-withdrawals.repository';
import { ServerReplacementsRepository } from './server-replacements.repository';

/** `group_<id>.txt` or `raw_<id>.txt`, the id checked by `canonicalUuid`. */
const FILE_NAME = /^(group|raw)_([^/]+)\.txt$/;
/** The oldest pause any allowance looks at (monthly: 6 months). */
const PAUSE_HISTORY_MS = 190 * 24 * 3_600_000;

export interface SubscriptionFile {
  fileName: string;
  content: string;
}

/** "IR · AS44244 Irancell", or null when the network is unknown. */
function networkLabel(network: Network | null): string | null {
  if (!network?.country) return null;
  const asn = network.asn
    ? ` · AS${network.asn}${network.asnName ? ` ${network.asnName}` : ''}`
    : '';
  return `${network.country}${asn}`;
}

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
  /**
   * Bytes the subscription moved over every day kept (issue 19 §3), as decimal strings, for
   * `subscription-userinfo: upload= download=`.
   */
  uploadBytes: string;
  downloadBytes: string;
  /** Servers left out because they are blocked on the requester's network, and that network. */
  blocked: { names: string[]; network: string | null };
  title: string;
  /**
   * The self-signed certificates (PEM) of the feed's TLS servers by their SHA-256 (the links'
   * `pcs`), for the formats that trust a certificate rather than pin its hash.
   */
  certificates: ReadonlyMap<string, string>;
}

export type QrCodes = Pick<
  SubscriptionCreationResponse,
  'groupQrCode' | 'groupQrTooComplex' | 'serverQrCodes'
>;

/**
 * What a client sees of its subscriptions (spec 02 §3, §7): the lists, the answer of every
 * change, the files, the QR codes and the subscription URL's feed. Moves nothing; the URL
 * secrets (subscription-url.ts) are issued and read back here.
 */
@Injectable()
export class SubscriptionViewsService {
  private readonly urlSecrets: SubscriptionUrlSecrets;

  constructor(
    private readonly repository: SubscriptionsRepository,
    private readonly withdrawals: ServerWithdrawalsRepository,
    private readonly replacements: ServerReplacementsRepository,
    private readonly premium: PremiumServers,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly traffic: TrafficRepository,
    private readonly reachability: FeedReachability,
  ) {
    this.urlSecrets = new SubscriptionUrlSecrets(config.appSecret);
  }

  /** spec 02 §7: active subscriptions. */
  listActive(ownerUuid: string): Promise<Subscription[]> {
    return this.list(ownerUuid, ['active']);
  }

  /** spec 02 §7: paused subscriptions, and expired ones (activating either resumes it). */
  listPaused(ownerUuid: string): Promise<Subscription[]> {
    return this.list(ownerUuid, ['paused', 'expired']);
  }

  async qrCodesOf(ownerUuid: string, id: string): Promise<SubscriptionQrCodesResponse> {
    const record = await this.repository.findOwned(ownerUuid, id);
    if (!record) throw SubscriptionsException.of('not_found');
    const details = this.view(record, await this.serversOf(record), [], this.clock.now());
    return {
      success: true,
      subscriptionId: record.id,
      ...this.qrCodes(details.servers, {
        uuid: record.vlessUuid,
        subscriptionUrl: details.subscriptionUrl,
      }),
    };
  }

  /** spec 02 §7 download-subscription: `group_<id>.txt` (base64) or `raw_<id>.txt` (lines). */
  async file(
    ownerUuid: string,
    fileName: string,
    subscriptionId?: string,
  ): Promise<SubscriptionFile> {
    const match = FILE_NAME.exec(fileName.toLowerCase());
    const id = canonicalUuid(match?.[2]);
    if (!match || !id || (subscriptionId !== undefined && id !== subscriptionId.toLowerCase())) {
      throw SubscriptionsException.of('file_not_found');
    }
    const kind = match[1] === 'group' ? 'group' : 'raw';
    const record = await this.repository.findOwned(ownerUuid, id);
    if (!record) throw SubscriptionsException.of('file_not_found');
    const links = subscriptionServers(await this.serversOf(record), record.vlessUuid)
      .map((server) => server.vlessString)
      .filter(Boolean);
    return {
      fileName: kind === 'group' ? subscriptionFileName(id) : subscriptionRawFileName(id),
      content: kind === 'group' ? groupFile(links) : rawFile(links),
    };
  }

  /**
   * `GET /sub/<secret>`: the base64 link list subscription apps import. Unknown, rotated and
   * deleted secrets are all simply not found. A paused, unpaid or expired subscription serves
   * placeholder entries that say so and where to activate it (subscription-feed.ts), never its
   * links: the app keeps the profile and picks the servers up again once it runs.
   */
  /** `address`: the requester's, whose network orders the servers and leaves blocked ones out. */
  async feed(secret: string, address: string | null = null): Promise<SubscriptionFeed | null> {
    const hash = this.urlSecrets.lookupHash(secret);
    if (!hash) return null;
    const record = await this.repository.findByUrlHash(hash);
    if (!record) return null;
    const [all, traffic] = await Promise.all([
      this.serversOf(record),
      this.traffic.totalOf(record.id),
    ]);
    const state = feedState(record);
    const shaped =
      state === 'active'
        ? await this.reachability.shape(record, all, address)
        : { servers: all, blocked: [], network: null };
    const list = shaped.servers;
    const links =
      state === 'active'
        ? subscriptionServers(list, record.vlessUuid).map((server) => server.vlessString)
        : placeholderLinks(state, this.feedPages);
    return {
      content: groupFile(links),
      links: links.filter(Boolean),
      state,
      url: this.subscriptionUrl(secret),
      expiresAt: timeLeft(record, this.clock.now()).expirationDate,
      uploadBytes: traffic.uploadBytes,
      downloadBytes: traffic.downloadBytes,
      title: `SCN ${subscriptionName(list.length)}`,
      certificates: state === 'active' ? certificatesOf(list) : new Map(),
      blocked: { names: shaped.blocked, network: networkLabel(shaped.network) },
    };
  }

  /** The portal pages every feed answer names (`profile-web-page-url`, `support-url`). */
  get feedPages(): FeedPages {
    return feedPages(this.config.publicUrl);
  }

  /** A new subscription URL: the secret's row columns, and the URL to show once. */
  issueUrl(): IssuedUrlSecret & { url: string } {
    const issued = this.urlSecrets.issue();
    return { ...issued, url: this.subscriptionUrl(issued.secret) };
  }

  /** spec 02 §3 Subscription, from rows already read. */
  view(
    record: SubscriptionRecord,
    servers: readonly SubscribableServer[],
    pauseStarts: readonly Date[],
    now: Date,
    history: ServerHistory = {},
  ): Subscription {
    const secret = this.urlSecrets.unseal(record.urlTokenSealed, record.urlTokenHash);
    const context = {
      now,
      free: launchPeriodActive(now, this.config.launchPeriodEndsAt),
      publicUrl: this.config.publicUrl,
      subscriptionUrl: secret ? this.subscriptionUrl(secret) : '',
    };
    return subscriptionView(record, servers, pauseStarts, context, history);
  }

  /** The view of a subscription changed in `tx`, with its pauses as `tx` sees them. */
  async viewIn(
    tx: Transaction,
    record: SubscriptionRecord,
    servers: readonly SubscribableServer[],
    now: Date,
  ): Promise<Subscription> {
    const since = new Date(now.getTime() - PAUSE_HISTORY_MS);
    const pauses = await this.repository.pauseStarts([record.id], since, tx);
    return this.view(record, servers, pauses.get(record.id) ?? [], now);
  }

  /** The answer of a change that moved no money. */
  async actionResponse(
    tx: Transaction,
    message: string,
    record: SubscriptionRecord,
    servers: readonly SubscribableServer[],
    now: Date,
  ): Promise<SubscriptionActionResponse> {
    return {
      success: true,
      message,
      subscription: await this.viewIn(tx, record, servers, now),
      chargedMicro: '0',
      paymentId: null,
    };
  }

  /** The group QR code (the subscription URL) and one per server link (PNG data URLs). */
  qrCodes(
    servers: readonly SubscriptionServer[],
    subscription: { uuid: string; subscriptionUrl: string },
  ): QrCodes {
    const group = subscription.subscriptionUrl
      ? qrDataUrl(subscription.subscriptionUrl)
      : { qrCode: null, qrTooComplex: false };
    return {
      groupQrCode: group.qrCode,
      groupQrTooComplex: group.qrTooComplex,
      serverQrCodes: servers.map((server) => ({
        id: server.id,
        name: server.name,
        uuid: linkUuid(server.vlessString, subscription.uuid),
        vlessString: server.vlessString,
        ...(server.vlessString
          ? qrDataUrl(server.vlessString)
          : { qrCode: null, qrTooComplex: false }),
      })),
    };
  }

  private async list(
    ownerUuid: string,
    statuses: Array<'active' | 'paused' | 'expired'>,
  ): Promise<Subscription[]> {
    const now = this.clock.now();
    const records = await this.repository.listOwned(ownerUuid, statuses);
    const ids = records.map((record) => record.id);
    const [servers, pauses, withdrawn, replacements] = await Promise.all([
      this.repository.serversOf(ids, this.premium.operatorEmail),
      this.repository.pauseStarts(ids, new Date(now.getTime() - PAUSE_HISTORY_MS)),
      this.withdrawals.listFor(ids),
      this.replacements.listFor(ids),
    ]);
    return records.map((record) =>
      this.view(record, servers.get(record.id) ?? [], pauses.get(record.id) ?? [], now, {
        withdrawn: withdrawn.get(record.id) ?? [],
        replacements: replacements.get(record.id) ?? [],
      }),
    );
  }

  /**
   * The servers of a subscription, outside any transaction. Premium servers are those the
   * platform operator account owns (PremiumServers, market domain): a join in the same read.
   */
  private async serversOf(record: SubscriptionRecord): Promise<SubscribableServer[]> {
    const servers = await this.repository.serversOf([record.id], this.premium.operatorEmail);
    return servers.get(record.id) ?? [];
  }

  private subscriptionUrl(secret: string): string {
    return `${this.config.publicUrl}${SUBSCRIPTION_ROUTES.subscriptionUrlPrefix}${secret}`;
  }
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
