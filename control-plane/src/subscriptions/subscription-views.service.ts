import { Inject, Injectable } from '@nestjs/common';
import {
  canonicalUuid,
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
import { launchPeriodActive } from '../common/launch-period';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { Transaction } from '../database/transaction-runner';
import { PremiumServers } from '../market/premium-servers';
import { qrDataUrl } from '../common/qr/qr-code';
import { groupFile, linkUuid, rawFile, subscriptionServers } from './subscription-links';
import { type IssuedUrlSecret, SubscriptionUrlSecrets } from './subscription-url';
import { type ServerHistory, subscriptionView } from './subscription-view';
import {
  type SubscribableServer,
  type SubscriptionRecord,
  SubscriptionsRepository,
} from './subscriptions.repository';
import { SubscriptionsException } from './subscriptions.exception';
import { ServerDropsRepository } from './server-drops.repository';
import { ServerReplacementsRepository } from './server-replacements.repository';

/** `group_<id>.txt` or `raw_<id>.txt`, the id checked by `canonicalUuid`. */
const FILE_NAME = /^(group|raw)_([^/]+)\.txt$/;
/** The oldest pause any allowance looks at (monthly: 6 months). */
const PAUSE_HISTORY_MS = 190 * 24 * 3_600_000;

export interface SubscriptionFile {
  fileName: string;
  content: string;
}

export type QrCodes = Pick<
  SubscriptionCreationResponse,
  'groupQrCode' | 'groupQrTooComplex' | 'serverQrCodes'
>;

/**
 * What a client sees of its subscriptions (docs/product/records.md#dashboard-records, docs/product/calls.md#dashboard-calls): the lists, the answer of every
 * change, the files, the QR codes and the subscription URL's feed. Moves nothing; the URL
 * secrets (subscription-url.ts) are issued and read back here.
 */
@Injectable()
export class SubscriptionViewsService {
  private readonly urlSecrets: SubscriptionUrlSecrets;

  constructor(
    private readonly repository: SubscriptionsRepository,
    private readonly drops: ServerDropsRepository,
    private readonly replacements: ServerReplacementsRepository,
    private readonly premium: PremiumServers,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.urlSecrets = new SubscriptionUrlSecrets(config.appSecret);
  }

  /** docs/product/calls.md#dashboard-calls: active subscriptions. */
  listActive(ownerUuid: string): Promise<Subscription[]> {
    return this.list(ownerUuid, ['active']);
  }

  /** docs/product/calls.md#dashboard-calls: paused subscriptions, and expired ones (activating either resumes it). */
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

  /** docs/product/calls.md#dashboard-calls download-subscription: `group_<id>.txt` (base64) or `raw_<id>.txt` (lines). */
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

  /** A new subscription URL: the secret's row columns, and the URL to show once. */
  issueUrl(): IssuedUrlSecret & { url: string } {
    const issued = this.urlSecrets.issue();
    return { ...issued, url: this.subscriptionUrl(issued.secret) };
  }

  /** docs/product/records.md#dashboard-records Subscription, from rows already read. */
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
    const [servers, pauses, dropped, replacements] = await Promise.all([
      this.repository.serversOf(ids, this.premium.operatorEmail),
      this.repository.pauseStarts(ids, new Date(now.getTime() - PAUSE_HISTORY_MS)),
      this.drops.listFor(ids),
      this.replacements.listFor(ids),
    ]);
    return records.map((record) =>
      this.view(record, servers.get(record.id) ?? [], pauses.get(record.id) ?? [], now, {
        dropped: dropped.get(record.id) ?? [],
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
