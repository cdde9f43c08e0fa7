import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type BillingCycle,
  type ChangeBillingTypeResponse,
  type CreateSubscriptionInput,
  formatSsl,
  type RotateSubscriptionUrlResponse,
  type Subscription,
  type SubscriptionActionResponse,
  type SubscriptionCreationResponse,
  type SubscriptionQrCodesResponse,
  SUBSCRIPTION_MESSAGES,
  SUBSCRIPTION_ROUTES,
  subscriptionFileName,
  subscriptionRawFileName,
  type SubscriptionServer,
  VPS_TIERS,
  WITHDRAWAL_REASON_TEXT,
  type WithdrawnServer,
} from '@scn/proto';
import type { EntityManager } from 'typeorm';
import type { ActiveSession } from '../auth/auth.repository';
import { CLOCK, type Clock } from '../common/clock';
import { KeyedBatcher } from '../common/keyed-batcher';
import { launchPeriodActive } from '../common/launch-period';
import { RETRYABLE_SQL_STATES, sqlState } from '../common/sql';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { PremiumServers } from '../market/premium-servers';
import { ClientSetsService } from '../client-sets/client-sets.service';
import { RealtimeGateway } from '../realtime/realtime.gateway';
import { viewReliability } from '../reliability/reliability';
import {
  type IdempotencyClaim,
  type IdempotentResult,
  IdempotencyService,
} from '../wallet/idempotency.service';
import type { LedgerTransactionType } from '../wallet/entities/ledger-transaction.entity';
import { LedgerService, type PostRequest, walletKey } from '../wallet/ledger.service';
import { WalletException } from '../wallet/wallet.exception';
import { PurchaseWriter } from './purchase-writer';
import { qrDataUrl } from './qr-code';
import { type FeedPages, feedPages, feedState, placeholderLinks } from './subscription-feed';
import {
  groupFile,
  linkUuid,
  rawFile,
  subscriptionName,
  subscriptionServers,
} from './subscription-links';
import {
  hourlyPriceMicro,
  OPERATOR_REWARD_FROZEN_MS,
  operatorRewards,
  PAUSE_RULES,
  pauseAllowance,
  periodDuration,
  periodMs,
  periodPriceMicro,
  type PricedServer,
} from './subscription-pricing';
import { SubscriptionUrlSecrets } from './subscription-url';
import {
  type SubscribableServer,
  type SubscriptionRecord,
  SubscriptionsRepository,
} from './subscriptions.repository';
import { SubscriptionsException } from './subscriptions.exception';
import { ServerWithdrawalJob } from './server-withdrawal.job';
import {
  ServerWithdrawalsRepository,
  type WithdrawalRecord,
} from './server-withdrawals.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FILE_NAME =
  /^(group|raw)_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.txt$/;
/** The oldest pause any allowance looks at (monthly: 6 months). */
const PAUSE_HISTORY_MS = 190 * 24 * 3_600_000;
const JOB_BATCH = 200;
const REALTIME_THROTTLE_MS = 250;

/** What a purchase stores under its Idempotency-Key: the answer without its QR images. */
type PurchaseRecord = Omit<
  SubscriptionCreationResponse,
  'groupQrCode' | 'groupQrTooComplex' | 'serverQrCodes'
>;

/** One paid period of a subscription, as `charge` and a purchase pay it. */
interface PeriodPayment {
  type: LedgerTransactionType;
  ownerUuid: string;
  subscriptionId: string;
  cycle: BillingCycle;
  servers: readonly PricedServer[];
  now: Date;
  priceMicro: bigint;
  description: string;
  externalRef?: string;
}

export interface SubscriptionFile {
  fileName: string;
  content: string;
}

export interface SubscriptionFeed {
  content: string;
  /** End of the paid time (for `subscription-userinfo: expire=`). */
  expiresAt: Date;
  title: string;
}

export interface SettleResult {
  renewed: number;
  expired: number;
  resumed: number;
  /** Servers dropped at renewal because they could not serve (issue 15 §7). */
  withdrawn: number;
}

function micro(value: bigint): string {
  return value.toString();
}

/** SSL as a number, for the spec's display fields (money itself stays in micro-SSL strings). */
function sslNumber(value: bigint): number {
  return Number(value) / 1_000_000;
}

/**
 * Subscriptions (spec 01 §4 Purchase; spec 02 §4 Subscription). Every change of money, state and
 * node client sets happens in one database transaction; the realtime event follows the commit.
 */
@Injectable()
export class SubscriptionsService {
  private readonly urlSecrets: SubscriptionUrlSecrets;
  private readonly serverReads = new KeyedBatcher<null, SubscribableServer | null>(
    async (batch) => {
      const servers = await this.repository.readServers([...batch.keys()], this.platformEmail);
      return new Map(servers.map((server) => [server.id, server]));
    },
    null,
  );
  private realtimeTimer: NodeJS.Timeout | null = null;
  private realtimePending = false;

  constructor(
    private readonly repository: SubscriptionsRepository,
    private readonly ledger: LedgerService,
    private readonly idempotency: IdempotencyService,
    private readonly purchases: PurchaseWriter,
    private readonly nodes: ClientSetsService,
    private readonly realtime: RealtimeGateway,
    private readonly premium: PremiumServers,
    private readonly withdrawals: ServerWithdrawalJob,
    private readonly withdrawalRecords: ServerWithdrawalsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.urlSecrets = new SubscriptionUrlSecrets(config.appSecret);
  }

  // ---------------------------------------------------------------------------------------
  // Purchase

  /**
   * spec 01 §4 Purchase, as one atomic call: the servers are checked, the price is computed
   * here, then one database function (batched with concurrent purchases, PurchaseWriter) locks
   * the servers' client sets and the wallet, checks capacity and balance, debits the client,
   * credits the operators (frozen 60 days), creates the subscription and allows its uuid on
   * every node, or does none of it.
   */
  async create(
    session: ActiveSession,
    input: CreateSubscriptionInput,
    idempotencyKey: string | undefined,
  ): Promise<SubscriptionCreationResponse> {
    if (session.account.userType !== 'client') throw SubscriptionsException.of('clients_only');
    if (input.uuid !== session.account.uuid) throw SubscriptionsException.of('uuid_mismatch');
    const ownerUuid = session.account.uuid;
    const claim = this.idempotency.claimOf(idempotencyKey, {
      route: SUBSCRIPTION_ROUTES.create,
      body: { serverIds: input.serverIds, billingCycle: input.billingCycle },
    });
    const result = await this.purchase(ownerUuid, input.serverIds, input.billingCycle, claim);
    if (!result.replayed) this.subscriptionsChanged();
    // QR images are drawn after the commit (no locks held meanwhile), also for a replay.
    return { ...result.body, ...this.qrCodes(result.body.servers, result.body.subscription) };
  }

  private async purchase(
    ownerUuid: string,
    serverIds: readonly string[],
    billingCycle: BillingCycle,
    claim: IdempotencyClaim | undefined,
  ): Promise<IdempotentResult<PurchaseRecord>> {
    for (let attempt = 1; ; attempt += 1) {
      const now = this.clock.now();
      const servers = await this.serversToBuy(serverIds, now);
      const url = this.urlSecrets.issue();
      const record: SubscriptionRecord = {
        id: randomUUID(),
        ownerUuid,
        vlessUuid: randomUUID(),
        status: 'active',
        billingCycle,
        autoRenew: true,
        periodIndex: 1,
        expiresAt: new Date(now.getTime() + periodMs(billingCycle)),
        pausedAt: null,
        pauseEndsAt: null,
        pauseReason: null,
        urlTokenHash: url.hash,
        urlTokenSealed: url.sealed,
        createdAt: now,
      };
      const price = periodPriceMicro(billingCycle, servers, this.free(now));
      const transactions = this.ledger.plan(
        price === 0n
          ? []
          : this.paymentRequests({
              type: 'subscription',
              ownerUuid,
              subscriptionId: record.id,
              cycle: billingCycle,
              servers,
              now,
              priceMicro: price,
              description: `Subscription to ${servers.length} server${servers.length === 1 ? '' : 's'}`,
            }),
      );
      const body = this.purchaseRecord(record, servers, now, {
        paymentId: transactions[0]?.id ?? null,
        chargedMicro: price,
      });

      const outcome = await this.purchases.write({
        owner: ownerUuid,
        key: claim?.key ?? null,
        requestHash: claim?.requestHash ?? null,
        subscription: {
          id: record.id,
          vlessUuid: record.vlessUuid,
          billingCycle,
          expiresAt: record.expiresAt.toISOString(),
          urlTokenHash: url.hash,
          urlTokenSealed: url.sealed,
          createdAt: now.toISOString(),
        },
        servers: servers.map((server) => ({ id: server.id, capacity: capacityOf(server) })),
        debitMicro: price.toString(),
        transactions,
        response: body,
      });
      switch (outcome.status) {
        case 'written':
          return { body: { ...body, balanceMicro: micro(outcome.balanceMicro) }, replayed: false };
        case 'replayed':
          return {
            body: await this.idempotency.replay<PurchaseRecord>(ownerUuid, claim!),
            replayed: true,
          };
        case 'server_not_found':
          throw SubscriptionsException.serverNotFound(outcome.serverId);
        case 'server_full':
          throw SubscriptionsException.serverFull(
            servers.find((server) => server.id === outcome.serverId)?.name ?? outcome.serverId,
          );
        case 'insufficient_balance':
          throw new WalletException('insufficient_balance', {
            balanceMicro: outcome.balanceMicro,
            requiredMicro: outcome.requiredMicro,
          });
        case 'retry':
          if (attempt >= 3) throw new Error('purchase rolled back by 3 deadlocks in a row');
      }
    }
  }

  /**
   * The servers of a purchase, in the client's order, each one the market lets a client select
   * now. Read without locks (batched with the reads of concurrent purchases): purchases never lock
   * server rows (report batches write them), so this is what the purchase's own statement would
   * see; capacity is checked there, under the client-set locks.
   */
  private async serversToBuy(
    serverIds: readonly string[],
    now: Date,
  ): Promise<SubscribableServer[]> {
    const found = await Promise.all(serverIds.map((id) => this.serverReads.submit(id, null)));
    return serverIds.map((id, i) => {
      const server = found[i];
      if (!server) throw SubscriptionsException.serverNotFound(id);
      if (!this.subscribable(server, now))
        throw SubscriptionsException.serverUnavailable(server.name);
      return server;
    });
  }

  /** What a purchase answers (and stores under its key), before the balance after payment. */
  private purchaseRecord(
    record: SubscriptionRecord,
    servers: readonly SubscribableServer[],
    now: Date,
    payment: { paymentId: string | null; chargedMicro: bigint },
  ): PurchaseRecord {
    const details = this.view(record, servers, [], now);
    const serverIds = ids(servers);
    return {
      success: true,
      message: SUBSCRIPTION_MESSAGES.created,
      subscriptionId: record.id,
      serverCount: servers.length,
      vlessString: details.vlessString,
      vlessStrings: details.vlessStrings,
      subscription: {
        id: record.id,
        uuid: record.vlessUuid,
        serverIds,
        vlessString: details.vlessString,
        vlessStrings: details.vlessStrings,
        rawFileUrl: details.rawFileUrl,
        groupFileUrl: details.groupFileUrl,
        subscriptionUrl: details.subscriptionUrl,
      },
      fileName: details.fileName,
      rawFileName: details.rawFileName,
      timestamp: now.toISOString(),
      servers: details.servers,
      serverIds,
      subscriptionUrl: details.subscriptionUrl,
      billingCycle: record.billingCycle,
      expirationDate: details.expirationDate,
      charged: sslNumber(payment.chargedMicro),
      chargedMicro: micro(payment.chargedMicro),
      balanceMicro: '',
      paymentId: payment.paymentId,
      details,
    };
  }

  // ---------------------------------------------------------------------------------------
  // Reads

  /** spec 02 §7: active subscriptions. */
  async listActive(ownerUuid: string): Promise<Subscription[]> {
    return this.list(ownerUuid, ['active']);
  }

  /** spec 02 §7: paused subscriptions, and expired ones (activating either resumes it). */
  async listPaused(ownerUuid: string): Promise<Subscription[]> {
    return this.list(ownerUuid, ['paused', 'expired']);
  }

  private async list(
    ownerUuid: string,
    statuses: Array<'active' | 'paused' | 'expired'>,
  ): Promise<Subscription[]> {
    const now = this.clock.now();
    const records = await this.repository.listOwned(ownerUuid, statuses);
    const ids = records.map((record) => record.id);
    const db = this.repository.dataSource;
    const [servers, pauses, withdrawn] = await Promise.all([
      this.repository.serversOf(db, ids, this.platformEmail),
      this.repository.pauseStarts(db, ids, new Date(now.getTime() - PAUSE_HISTORY_MS)),
      this.withdrawalRecords.listFor(db, ids),
    ]);
    return records.map((record) =>
      this.view(
        record,
        servers.get(record.id) ?? [],
        pauses.get(record.id) ?? [],
        now,
        withdrawn.get(record.id) ?? [],
      ),
    );
  }

  async qrCodesOf(ownerUuid: string, id: string): Promise<SubscriptionQrCodesResponse> {
    const record = await this.findOwned(ownerUuid, id);
    const now = this.clock.now();
    const servers = await this.repository.serversOf(
      this.repository.dataSource,
      [record.id],
      this.platformEmail,
    );
    const details = this.view(record, servers.get(record.id) ?? [], [], now);
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
    if (!match || (subscriptionId !== undefined && match[2] !== subscriptionId.toLowerCase())) {
      throw SubscriptionsException.of('file_not_found');
    }
    const kind = match[1] === 'group' ? 'group' : 'raw';
    const id = match[2]!;
    const record = await this.repository.findOwned(ownerUuid, id);
    if (!record) throw SubscriptionsException.of('file_not_found');
    const links = await this.links(record);
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
  async feed(secret: string): Promise<SubscriptionFeed | null> {
    const hash = this.urlSecrets.lookupHash(secret);
    if (!hash) return null;
    const record = await this.repository.findByUrlHash(hash);
    if (!record) return null;
    const servers = await this.repository.serversOf(
      this.repository.dataSource,
      [record.id],
      this.platformEmail,
    );
    const list = servers.get(record.id) ?? [];
    const state = feedState(record);
    const links =
      state === 'active'
        ? subscriptionServers(list, record.vlessUuid).map((server) => server.vlessString)
        : placeholderLinks(state, this.feedPages);
    return {
      content: groupFile(links),
      expiresAt: this.timeLeft(record, this.clock.now()).expirationDate,
      title: `SCN ${subscriptionName(list.length)}`,
    };
  }

  /** The portal pages every feed answer names (`profile-web-page-url`, `support-url`). */
  get feedPages(): FeedPages {
    return feedPages(this.config.publicUrl);
  }

  // ---------------------------------------------------------------------------------------
  // State changes

  /**
   * spec 02 §4 Pause, within the allowance of spec 02 §9 (hourly: 2 in any 24 hours; monthly: 1
   * free in any 6 months). The paid time stops; the uuid leaves the nodes; the pause ends by
   * itself after 8 hours (hourly) or 7 days (monthly). Beyond the allowance: 409, nothing changes.
   */
  async pause(ownerUuid: string, id: string): Promise<SubscriptionActionResponse> {
    const now = this.clock.now();
    const response = await retrying(() =>
      this.ledger.transaction(async (manager) => {
        const record = await this.lockOwned(manager, ownerUuid, id);
        if (record.status !== 'active') throw SubscriptionsException.of('not_active');
        const rule = PAUSE_RULES[record.billingCycle];
        const starts = await this.repository.pauseStarts(manager, [id], rule.windowStart(now));
        const allowance = pauseAllowance(record.billingCycle, starts.get(id) ?? [], now);
        if (allowance.pausesLeft === 0) {
          throw SubscriptionsException.pauseAllowanceUsed(
            record.billingCycle,
            allowance.nextPauseAvailableAt ?? now.toISOString(),
          );
        }
        const pauseEndsAt = new Date(now.getTime() + rule.maxPauseMs);
        await this.repository.insertPause(manager, {
          id: randomUUID(),
          subscriptionId: id,
          startedAt: now,
          endsAt: pauseEndsAt,
        });
        const changes = {
          status: 'paused' as const,
          pausedAt: now,
          pauseEndsAt,
          pauseReason: 'user' as const,
        };
        await this.repository.update(manager, id, changes);
        const servers = await this.serversFor(manager, id);
        // The paused subscription keeps its slots (it resumes by itself) but leaves the nodes.
        await this.nodes.disableClients(manager, ids(servers), record.vlessUuid);
        const updated = { ...record, ...changes };
        return this.actionResponse(manager, SUBSCRIPTION_MESSAGES.paused, updated, servers, now);
      }),
    );
    this.subscriptionsChanged();
    return response;
  }

  /**
   * spec 02 §4 Activate. A client pause resumes for free (the paid time runs on from where it
   * stopped). An expired subscription, or one paused because a billing change could not be paid,
   * pays one period of its billing cycle now: 402 with balance and required when short.
   */
  async activate(
    ownerUuid: string,
    id: string,
    idempotencyKey: string | undefined,
  ): Promise<SubscriptionActionResponse> {
    const now = this.clock.now();
    const result = await retrying(() =>
      this.idempotency.once(
        ownerUuid,
        idempotencyKey,
        { route: `activate:${id}`, body: {} },
        async (manager) => {
          const record = await this.lockOwned(manager, ownerUuid, id);
          if (record.status === 'paused' && record.pauseReason === 'user' && record.pausedAt) {
            const pausedMs = now.getTime() - record.pausedAt.getTime();
            return this.resume(manager, record, now, pausedMs, SUBSCRIPTION_MESSAGES.activated);
          }
          if (record.status !== 'paused' && record.status !== 'expired') {
            throw SubscriptionsException.of('not_paused');
          }
          // issue 15 §7: servers that cannot serve are dropped, not paid for.
          const { kept: current } = await this.withdrawals.dropUnable(
            manager,
            record,
            await this.serversFor(manager, id),
            now,
          );
          if (current.length === 0) throw SubscriptionsException.of('no_servers_left');
          // Its slots were given up: take them again, under the same locks as a purchase.
          const servers = await this.repository.lockServers(
            manager,
            ids(current),
            this.platformEmail,
          );
          await this.assertFreeSlots(manager, servers);
          const wallet = await this.ledger.lockWallet(manager, 'client_wallet', ownerUuid);
          const price = periodPriceMicro(record.billingCycle, servers, this.free(now));
          if (wallet.balanceMicro < price) {
            throw SubscriptionsException.activateInsufficient(wallet.balanceMicro, price);
          }
          const payment = await this.charge(manager, {
            type: 'activation',
            ownerUuid,
            subscriptionId: id,
            cycle: record.billingCycle,
            servers: current,
            now,
            description: 'Subscription activated',
          });
          const changes = {
            status: 'active' as const,
            periodIndex: record.periodIndex + 1,
            expiresAt: new Date(now.getTime() + periodMs(record.billingCycle)),
            pausedAt: null,
            pauseEndsAt: null,
            pauseReason: null,
          };
          await this.repository.update(manager, id, changes);
          await this.nodes.addClients(manager, ids(current), record.vlessUuid);
          const response = await this.actionResponse(
            manager,
            SUBSCRIPTION_MESSAGES.activated,
            { ...record, ...changes },
            current,
            now,
          );
          return {
            ...response,
            chargedMicro: micro(payment.chargedMicro),
            paymentId: payment.paymentId,
          };
        },
      ),
    );
    if (!result.replayed) this.subscriptionsChanged();
    return result.body;
  }

  /** spec 02 §4: deleted from either state; its uuid leaves every node, its URL stops working. */
  async remove(ownerUuid: string, id: string): Promise<void> {
    const now = this.clock.now();
    await retrying(() =>
      this.ledger.transaction(async (manager) => {
        const record = await this.lockOwned(manager, ownerUuid, id);
        const servers = await this.serversFor(manager, id);
        await this.nodes.removeClients(manager, ids(servers), record.vlessUuid);
        await this.repository.closePause(manager, id, now);
        await this.repository.update(manager, id, {
          status: 'deleted',
          deletedAt: now,
          pausedAt: null,
          pauseEndsAt: null,
          pauseReason: null,
          urlTokenHash: null,
          urlTokenSealed: null,
        });
        await this.repository.dropServers(manager, id);
      }),
    );
    this.subscriptionsChanged();
  }

  /**
   * spec 02 §4, §9 change billing type: 10 SSL per server upfront for a new period of the new
   * cycle starting now, no refund of the remaining time. When the wallet cannot pay it, the
   * subscription is paused with the new cycle (spec 02 §4: the automatic pause) and activating it
   * later pays that period.
   */
  async changeType(
    ownerUuid: string,
    id: string,
    newCycle: BillingCycle,
    idempotencyKey: string | undefined,
  ): Promise<ChangeBillingTypeResponse> {
    const now = this.clock.now();
    const result = await retrying(() =>
      this.idempotency.once(
        ownerUuid,
        idempotencyKey,
        { route: `change-type:${id}`, body: { newBillingCycle: newCycle } },
        async (manager): Promise<ChangeBillingTypeResponse> => {
          const record = await this.lockOwned(manager, ownerUuid, id);
          if (record.status !== 'active') throw SubscriptionsException.of('not_active');
          if (record.billingCycle === newCycle)
            throw SubscriptionsException.sameBillingCycle(newCycle);
          // issue 15 §7: a new period is paid only for the servers that can serve.
          const { kept: servers } = await this.withdrawals.dropUnable(
            manager,
            record,
            await this.serversFor(manager, id),
            now,
          );
          if (servers.length === 0) throw SubscriptionsException.of('no_servers_left');
          const price = periodPriceMicro(newCycle, servers, this.free(now));
          const wallet = await this.ledger.lockWallet(manager, 'client_wallet', ownerUuid);
          if (wallet.balanceMicro < price) {
            const changes = {
              status: 'paused' as const,
              billingCycle: newCycle,
              pausedAt: now,
              pauseEndsAt: null,
              pauseReason: 'insufficient_funds' as const,
            };
            await this.repository.update(manager, id, changes);
            await this.nodes.removeClients(manager, ids(servers), record.vlessUuid);
            const view = await this.viewIn(manager, { ...record, ...changes }, servers, now);
            return {
              success: true,
              message: SUBSCRIPTION_MESSAGES.automaticallyPaused(newCycle),
              subscription: view,
              walletBalance: Number(formatSsl(wallet.balanceMicro)),
              walletBalanceMicro: micro(wallet.balanceMicro),
              automaticallyPaused: true,
              availableBalance: Number(formatSsl(wallet.balanceMicro)),
              requiredAmount: Number(formatSsl(price)),
              chargedMicro: '0',
              paymentId: null,
            };
          }
          const payment = await this.charge(manager, {
            type: 'billing_change',
            ownerUuid,
            subscriptionId: id,
            cycle: newCycle,
            servers,
            now,
            description: `Billing changed to ${newCycle}`,
          });
          const changes = {
            billingCycle: newCycle,
            periodIndex: record.periodIndex + 1,
            expiresAt: new Date(now.getTime() + periodMs(newCycle)),
          };
          await this.repository.update(manager, id, changes);
          const view = await this.viewIn(manager, { ...record, ...changes }, servers, now);
          return {
            success: true,
            message: SUBSCRIPTION_MESSAGES.typeChanged(newCycle),
            subscription: view,
            walletBalance: Number(formatSsl(payment.balanceMicro)),
            walletBalanceMicro: micro(payment.balanceMicro),
            automaticallyPaused: false,
            chargedMicro: micro(payment.chargedMicro),
            paymentId: payment.paymentId,
          };
        },
      ),
    );
    if (!result.replayed) this.subscriptionsChanged();
    return result.body;
  }

  /** A new subscription URL; the old one answers 404 from the commit on. */
  /**
   * spec 02 §3 autoRenew: whether the billing job renews the subscription at the end of its
   * period (paying for it) or lets it expire there. Moves no money.
   */
  async setAutoRenew(
    ownerUuid: string,
    id: string,
    autoRenew: boolean,
  ): Promise<SubscriptionActionResponse> {
    const now = this.clock.now();
    const response = await this.ledger.transaction(async (manager) => {
      const record = await this.lockOwned(manager, ownerUuid, id);
      if (record.status === 'deleted') throw SubscriptionsException.of('not_found');
      await this.repository.update(manager, id, { autoRenew });
      const servers = await this.serversFor(manager, id);
      return this.actionResponse(
        manager,
        autoRenew ? SUBSCRIPTION_MESSAGES.autoRenewOn : SUBSCRIPTION_MESSAGES.autoRenewOff,
        { ...record, autoRenew },
        servers,
        now,
      );
    });
    this.subscriptionsChanged();
    return response;
  }

  async rotateUrl(ownerUuid: string, id: string): Promise<RotateSubscriptionUrlResponse> {
    const url = this.urlSecrets.issue();
    await this.ledger.transaction(async (manager) => {
      await this.lockOwned(manager, ownerUuid, id);
      await this.repository.update(manager, id, {
        urlTokenHash: url.hash,
        urlTokenSealed: url.sealed,
      });
    });
    return {
      success: true,
      message: SUBSCRIPTION_MESSAGES.urlRotated,
      subscriptionUrl: this.subscriptionUrl(url.secret),
    };
  }

  // ---------------------------------------------------------------------------------------
  // The billing job

  /**
   * What the minute job does (idempotent: each step re-checks the row under its lock, and a
   * renewal's ledger movement carries `renewal:<id>:<period>`, which the ledger takes once):
   * pauses that reached their end resume; active subscriptions whose paid time ended renew
   * when they auto-renew and the wallet can pay, and expire otherwise (their uuid leaves the
   * nodes). Each subscription is settled in its own transaction.
   */
  async settleDue(): Promise<SettleResult> {
    const now = this.clock.now();
    const result: SettleResult = { renewed: 0, expired: 0, resumed: 0, withdrawn: 0 };
    for (let after = '00000000-0000-0000-0000-000000000000'; ;) {
      const due = await this.repository.dueForResume(now, after, JOB_BATCH);
      for (const id of due) {
        if (await retrying(() => this.resumeDue(id, now))) result.resumed += 1;
      }
      if (due.length < JOB_BATCH) break;
      after = due[due.length - 1]!;
    }
    for (let after = '00000000-0000-0000-0000-000000000000'; ;) {
      const due = await this.repository.dueForRenewal(now, after, JOB_BATCH);
      for (const id of due) {
        const outcome = await retrying(() => this.renewOrExpire(id, now));
        if (outcome?.status === 'renewed') result.renewed += 1;
        if (outcome?.status === 'expired') result.expired += 1;
        result.withdrawn += outcome?.withdrawn ?? 0;
      }
      if (due.length < JOB_BATCH) break;
      after = due[due.length - 1]!;
    }
    // issue 15 §7: the client dashboard re-reads and shows the dropped servers.
    if (result.withdrawn > 0) this.realtime.serverListUpdated('withdrawn');
    if (result.renewed + result.expired + result.resumed + result.withdrawn > 0) {
      this.subscriptionsChanged();
    }
    return result;
  }

  private resumeDue(id: string, now: Date): Promise<boolean> {
    return this.ledger.transaction(async (manager) => {
      const record = await this.repository.lockForJob(manager, id);
      if (
        !record ||
        record.status !== 'paused' ||
        record.pauseReason !== 'user' ||
        !record.pausedAt ||
        !record.pauseEndsAt ||
        record.pauseEndsAt > now
      ) {
        return false;
      }
      // spec 02 §9: a pause past its limit ends by itself, as if resumed at the limit.
      const pausedMs = record.pauseEndsAt.getTime() - record.pausedAt.getTime();
      await this.resume(
        manager,
        record,
        record.pauseEndsAt,
        pausedMs,
        SUBSCRIPTION_MESSAGES.activated,
      );
      return true;
    });
  }

  /**
   * Renews one subscription whose paid time ended, or expires it. issue 15 §7: first its servers
   * that cannot serve (banned, or hidden below 95% for an hour) are dropped, refunded for any
   * paid time they could not serve, and the renewal charges and rewards only the servers that
   * remain; with none left it expires (the dashboard lists why each server went).
   */
  private renewOrExpire(
    id: string,
    now: Date,
  ): Promise<{ status: 'renewed' | 'expired'; withdrawn: number } | null> {
    return this.ledger.transaction(async (manager) => {
      const record = await this.repository.lockForJob(manager, id);
      if (!record || record.status !== 'active' || record.expiresAt > now) return null;
      const { kept: servers, dropped: withdrawn } = await this.withdrawals.dropUnable(
        manager,
        record,
        await this.serversFor(manager, id),
        now,
      );
      if (record.autoRenew && servers.length > 0) {
        const price = periodPriceMicro(record.billingCycle, servers, this.free(now));
        const wallet = await this.ledger.lockWallet(manager, 'client_wallet', record.ownerUuid);
        if (wallet.balanceMicro >= price) {
          const period = record.periodIndex + 1;
          await this.charge(manager, {
            type: 'subscription',
            ownerUuid: record.ownerUuid,
            subscriptionId: id,
            cycle: record.billingCycle,
            servers,
            now,
            description: 'Subscription renewed',
            externalRef: `renewal:${id}:${period}`,
          });
          await this.repository.update(manager, id, {
            periodIndex: period,
            expiresAt: new Date(record.expiresAt.getTime() + periodMs(record.billingCycle)),
          });
          return { status: 'renewed' as const, withdrawn };
        }
      }
      await this.repository.update(manager, id, { status: 'expired' });
      await this.nodes.removeClients(manager, ids(servers), record.vlessUuid);
      return { status: 'expired' as const, withdrawn };
    });
  }

  // ---------------------------------------------------------------------------------------
  // Helpers

  private async resume(
    manager: EntityManager,
    record: SubscriptionRecord,
    resumedAt: Date,
    pausedMs: number,
    message: string,
  ): Promise<SubscriptionActionResponse> {
    const changes = {
      status: 'active' as const,
      expiresAt: new Date(record.expiresAt.getTime() + Math.max(0, pausedMs)),
      pausedAt: null,
      pauseEndsAt: null,
      pauseReason: null,
    };
    await this.repository.update(manager, record.id, changes);
    await this.repository.closePause(manager, record.id, resumedAt);
    const servers = await this.serversFor(manager, record.id);
    await this.nodes.enableClients(manager, ids(servers), record.vlessUuid);
    return this.actionResponse(
      manager,
      message,
      { ...record, ...changes },
      servers,
      this.clock.now(),
    );
  }

  /**
   * One paid period: the client pays the platform, and the platform pays each operator 10 SSL
   * per non-premium server, frozen 60 days (spec 01 §9; spec 02 §9: 100% of client payments go to
   * the operators); premium servers' share stays with the platform. Nothing moves when the
   * price is 0 (launch period). Throws insufficient_balance (402) before writing when short.
   */
  private async charge(
    manager: EntityManager,
    request: Omit<PeriodPayment, 'priceMicro'>,
  ): Promise<{ paymentId: string | null; chargedMicro: bigint; balanceMicro: bigint }> {
    const { ownerUuid, cycle, servers, now } = request;
    const price = periodPriceMicro(cycle, servers, this.free(now));
    if (price === 0n) {
      const wallet = await this.ledger.lockWallet(manager, 'client_wallet', ownerUuid);
      return { paymentId: null, chargedMicro: 0n, balanceMicro: wallet.balanceMicro };
    }
    // The payment and every reward it pays, written together (one statement).
    const { transactionIds, balancesAfterMicro } = await this.ledger.postAll(
      manager,
      this.paymentRequests({ ...request, priceMicro: price }),
    );
    return {
      paymentId: transactionIds[0]!,
      chargedMicro: price,
      balanceMicro: balancesAfterMicro.get(walletKey('client_wallet', ownerUuid))!,
    };
  }

  /** The ledger movements of one paid period: the client's payment, then each operator's reward. */
  private paymentRequests(request: PeriodPayment): PostRequest[] {
    const { ownerUuid, subscriptionId, cycle, servers, now, priceMicro: price } = request;
    const duration = periodDuration(cycle);
    const frozenUntil = new Date(now.getTime() + OPERATOR_REWARD_FROZEN_MS);
    return [
      {
        type: request.type,
        postings: [
          { account: { wallet: 'client_wallet', ownerUuid }, amountMicro: -price },
          { account: { system: 'platform_revenue' }, amountMicro: price },
        ],
        initiatorUuid: ownerUuid,
        subscriptionId,
        serverCount: servers.length,
        duration,
        description: request.description,
        externalRef: request.externalRef ?? null,
      },
      ...operatorRewards(servers).map((reward) => ({
        type: 'subscription_reward' as const,
        postings: [
          { account: { system: 'platform_revenue' as const }, amountMicro: -reward.amountMicro },
          {
            account: { wallet: 'node_wallet' as const, ownerUuid: reward.ownerUuid },
            amountMicro: reward.amountMicro,
            frozenUntil,
          },
        ],
        initiatorUuid: ownerUuid,
        subscriptionId,
        serverCount: reward.serverCount,
        duration,
        description: 'Subscription reward (frozen 60 days)',
        externalRef: request.externalRef
          ? `${request.externalRef}:reward:${reward.ownerUuid}`
          : null,
      })),
    ];
  }

  /**
   * spec 01 §4 Server disabled: only servers a client could select on the market can be bought:
   * not banned or hidden (below 95%), reporting (not stale) at 50% or more, with a running core
   * and an address clients can dial.
   */
  private subscribable(server: SubscribableServer, now: Date): boolean {
    const view = viewReliability(server, now);
    const coreDown = ['stopped', 'failed', 'absent'].includes(server.coreState ?? '');
    const hasAddress =
      server.source === 'manual'
        ? Boolean(server.vlessString)
        : Boolean(server.host && server.port);
    return !view.banned && !view.hidden && view.available && !coreDown && hasAddress;
  }

  /** spec 01 §9: a server takes at most its tier's max clients (manual servers: tier1's 10). */
  private async assertFreeSlots(
    manager: EntityManager,
    servers: readonly SubscribableServer[],
  ): Promise<void> {
    const taken = await this.repository.slotsTaken(manager, ids(servers));
    for (const server of servers) {
      if ((taken.get(server.id) ?? 0) >= capacityOf(server)) {
        throw SubscriptionsException.serverFull(server.name);
      }
    }
  }

  private async lockOwned(
    manager: EntityManager,
    ownerUuid: string,
    id: string,
  ): Promise<SubscriptionRecord> {
    const record = UUID.test(id) ? await this.repository.lockOwned(manager, ownerUuid, id) : null;
    if (!record) throw SubscriptionsException.of('not_found');
    return record;
  }

  private async findOwned(ownerUuid: string, id: string): Promise<SubscriptionRecord> {
    const record = UUID.test(id) ? await this.repository.findOwned(ownerUuid, id) : null;
    if (!record) throw SubscriptionsException.of('not_found');
    return record;
  }

  private async serversFor(manager: EntityManager, id: string): Promise<SubscribableServer[]> {
    const servers = await this.repository.serversOf(manager, [id], this.platformEmail);
    return servers.get(id) ?? [];
  }

  private async links(record: SubscriptionRecord): Promise<string[]> {
    const servers = await this.repository.serversOf(
      this.repository.dataSource,
      [record.id],
      this.platformEmail,
    );
    return subscriptionServers(servers.get(record.id) ?? [], record.vlessUuid)
      .map((server) => server.vlessString)
      .filter(Boolean);
  }

  private async viewIn(
    manager: EntityManager,
    record: SubscriptionRecord,
    servers: readonly SubscribableServer[],
    now: Date,
  ): Promise<Subscription> {
    const since = new Date(now.getTime() - PAUSE_HISTORY_MS);
    const pauses = await this.repository.pauseStarts(manager, [record.id], since);
    return this.view(record, servers, pauses.get(record.id) ?? [], now);
  }

  private async actionResponse(
    manager: EntityManager,
    message: string,
    record: SubscriptionRecord,
    servers: readonly SubscribableServer[],
    now: Date,
  ): Promise<SubscriptionActionResponse> {
    return {
      success: true,
      message,
      subscription: await this.viewIn(manager, record, servers, now),
      chargedMicro: '0',
      paymentId: null,
    };
  }

  /** spec 02 §3 Subscription, as the lists show it. */
  private view(
    record: SubscriptionRecord,
    servers: readonly SubscribableServer[],
    pauseStarts: readonly Date[],
    now: Date,
    withdrawn: readonly WithdrawalRecord[] = [],
  ): Subscription {
    const free = this.free(now);
    const linked = subscriptionServers(servers, record.vlessUuid);
    const links = linked.map((server) => server.vlessString).filter(Boolean);
    const first = links[0] ?? '';
    const period = periodPriceMicro(record.billingCycle, servers, free);
    const { remainingMs, expirationDate } = this.timeLeft(record, now);
    const owner = record.ownerUuid;
    const fileName = subscriptionFileName(record.id);
    const rawFileName = subscriptionRawFileName(record.id);
    const secret = this.urlSecrets.unseal(record.urlTokenSealed, record.urlTokenHash);
    const userPause = record.status === 'paused' && record.pauseReason === 'user';
    const activationPrice = record.status === 'active' || userPause ? 0n : period;
    const status = record.status === 'deleted' ? 'expired' : record.status;
    const hours = Math.floor(remainingMs / 3_600_000);
    return {
      id: record.id,
      uuid: record.vlessUuid,
      name: subscriptionName(servers.length),
      status,
      timestamp: record.createdAt.toISOString(),
      created: record.createdAt.toISOString(),
      billingCycle: record.billingCycle,
      billingAmount: sslNumber(period),
      billingAmountMicro: micro(period),
      hourlyPrice: sslNumber(hourlyPriceMicro(servers, free)),
      hourlyPriceMicro: micro(hourlyPriceMicro(servers, free)),
      expirationDate: expirationDate.toISOString(),
      remainingHours: hours,
      hoursRemaining: hours,
      remainingSeconds: Math.floor(remainingMs / 1000),
      serverCount: servers.length,
      serverIds: servers.map((server) => server.id),
      servers: linked,
      vlessString: first,
      vlessStrings: links,
      vlessLink: first,
      connectionString: first,
      vlessConnectionString: first,
      fileName,
      rawFileName,
      groupFileUrl: `${this.config.publicUrl}${SUBSCRIPTION_ROUTES.download(owner, fileName)}`,
      rawFileUrl: `${this.config.publicUrl}${SUBSCRIPTION_ROUTES.download(owner, rawFileName)}`,
      subscriptionUrl: secret ? this.subscriptionUrl(secret) : '',
      qrCodesUrl: `${this.config.publicUrl}${SUBSCRIPTION_ROUTES.qrCodes(owner, record.id)}`,
      autoRenew: record.autoRenew,
      pausedAt: record.pausedAt?.toISOString() ?? null,
      pauseEndsAt: userPause ? (record.pauseEndsAt?.toISOString() ?? null) : null,
      pauseReason: record.status === 'paused' ? record.pauseReason : null,
      activationPrice: sslNumber(activationPrice),
      activationPriceMicro: micro(activationPrice),
      pauseAllowance: pauseAllowance(record.billingCycle, pauseStarts, now),
      withdrawnServers: withdrawn.map(withdrawnServerView),
    };
  }

  /** Paid time left, and when it ends: a client pause stops the clock; unpaid time is 0. */
  private timeLeft(
    record: SubscriptionRecord,
    now: Date,
  ): { remainingMs: number; expirationDate: Date } {
    if (record.status === 'active') {
      return {
        remainingMs: Math.max(0, record.expiresAt.getTime() - now.getTime()),
        expirationDate: record.expiresAt,
      };
    }
    if (record.status === 'paused' && record.pauseReason === 'user' && record.pausedAt) {
      const remainingMs = Math.max(0, record.expiresAt.getTime() - record.pausedAt.getTime());
      return { remainingMs, expirationDate: new Date(now.getTime() + remainingMs) };
    }
    if (record.status === 'paused' && record.pausedAt) {
      return { remainingMs: 0, expirationDate: record.pausedAt };
    }
    return { remainingMs: 0, expirationDate: record.expiresAt };
  }

  private qrCodes(
    servers: readonly SubscriptionServer[],
    subscription: { uuid: string; subscriptionUrl: string },
  ): Pick<SubscriptionCreationResponse, 'groupQrCode' | 'groupQrTooComplex' | 'serverQrCodes'> {
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

  /**
   * The realtime event after a commit (spec 02 §7: the dashboard reloads on server-list-updated).
   * It only makes browsers refetch, so a burst of purchases on this replica sends one event at
   * once and at most one more per 250 ms, instead of a database notification per purchase.
   */
  private subscriptionsChanged(): void {
    if (this.realtimeTimer) {
      this.realtimePending = true;
      return;
    }
    this.realtime.serverListUpdated('subscription');
    this.realtimeTimer = setTimeout(() => {
      this.realtimeTimer = null;
      if (this.realtimePending) {
        this.realtimePending = false;
        this.subscriptionsChanged();
      }
    }, REALTIME_THROTTLE_MS);
    this.realtimeTimer.unref();
  }

  private subscriptionUrl(secret: string): string {
    return `${this.config.publicUrl}${SUBSCRIPTION_ROUTES.subscriptionUrlPrefix}${secret}`;
  }

  private free(now: Date): boolean {
    return launchPeriodActive(now, this.config.launchPeriodEndsAt);
  }

  /**
   * Premium servers are those the platform operator account owns (PremiumServers, market
   * domain); the check is a join inside the same locked statements that read the servers.
   */
  private get platformEmail(): string | null {
    return this.premium.operatorEmail;
  }
}

/** issue 15 §7: a dropped server, its reason and its refund, as the dashboard shows them. */
function withdrawnServerView(record: WithdrawalRecord): WithdrawnServer {
  return {
    id: record.serverId,
    name: record.serverName,
    reason: record.reason,
    reasonText: WITHDRAWAL_REASON_TEXT[record.reason],
    unableSince: record.unableSince.toISOString(),
    withdrawnAt: record.withdrawnAt.toISOString(),
    refund: sslNumber(record.refundMicro),
    refundMicro: micro(record.refundMicro),
  };
}

/** spec 01 §9: a server takes at most its tier's max clients (manual servers: tier1's 10). */
function capacityOf(server: SubscribableServer): number {
  return (VPS_TIERS.find((t) => t.id === server.tier) ?? VPS_TIERS[0]!).maxClients;
}

function ids(servers: readonly { id: string }[]): string[] {
  return servers.map((server) => server.id);
}

/** Runs `work` again (at most 3 times) when PostgreSQL aborted it for a deadlock. */
async function retrying<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      const code = sqlState(error);
      if (attempt >= 3 || !code || !RETRYABLE_SQL_STATES.has(code)) throw error;
    }
  }
}
