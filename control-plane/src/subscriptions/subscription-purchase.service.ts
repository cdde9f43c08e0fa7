import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  isCoreDown,
  type BillingCycle,
  type CreateSubscriptionInput,
  SUBSCRIPTION_MESSAGES,
  SUBSCRIPTION_ROUTES,
  type SubscriptionCreationResponse,
} from '@scn/proto';
import type { ActiveSession } from '../auth/auth.repository';
import { CLOCK, type Clock } from '../common/clock';
import { KeyedBatcher } from '../common/keyed-batcher';
import { PremiumServers } from '../market/premium-servers';
import { hasDialableAddress } from '../nodes/server-address';
import { viewReliability } from '../reliability/reliability';
import {
  type IdempotencyClaim,
  type IdempotentResult,
  IdempotencyService,
} from '../wallet/idempotency.service';
import { WalletException } from '../wallet/wallet.exception';
import { PurchasesRepository } from './purchases.repository';
import { serverIds } from './subscription-links';
import { SubscriptionPaymentsService } from './subscription-payments.service';
import { periodMs } from './subscription-pricing';
import { sslNumber } from '../common/money';
import { micro } from './subscription-view';
import { SubscriptionViewsService } from './subscription-views.service';
import {
  type SubscribableServer,
  type SubscriptionRecord,
  SubscriptionsRepository,
} from './subscriptions.repository';
import { SubscriptionsException } from './subscriptions.exception';
import { SubscriptionsNotifier } from './subscriptions.notifier';

/** What a purchase stores under its Idempotency-Key: the answer without its QR images. */
type PurchaseRecord = Omit<
  SubscriptionCreationResponse,
  'groupQrCode' | 'groupQrTooComplex' | 'serverQrCodes'
>;

/** How many times a purchase is sent again after a deadlock rolled it back in its batch. */
const PURCHASE_ATTEMPTS = 3;

/**
 * docs/product/states.md#market-and-account-states Purchase, as one atomic call: the servers are checked, the price is computed
 * here, then one database function (batched with concurrent purchases, PurchasesRepository)
 * locks the servers' client sets and the wallet, checks capacity and balance, debits the client,
 * credits the operators (frozen 60 days), creates the subscription and allows its uuid on every
 * node, or does none of it.
 */
@Injectable()
export class SubscriptionPurchaseService {
  private readonly serverReads = new KeyedBatcher<null, SubscribableServer | null>(
    async (batch) => {
      const servers = await this.repository.readServers(
        [...batch.keys()],
        this.premium.operatorEmail,
      );
      return new Map(servers.map((server) => [server.id, server]));
    },
    null,
  );

  constructor(
    private readonly repository: SubscriptionsRepository,
    private readonly purchases: PurchasesRepository,
    private readonly idempotency: IdempotencyService,
    private readonly payments: SubscriptionPaymentsService,
    private readonly views: SubscriptionViewsService,
    private readonly notifier: SubscriptionsNotifier,
    private readonly premium: PremiumServers,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

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
    if (!result.replayed) this.notifier.changed();
    // QR images are drawn after the commit (no locks held meanwhile), also for a replay.
    const { servers, subscription } = result.body;
    return { ...result.body, ...this.views.qrCodes(servers, subscription) };
  }

  private async purchase(
    ownerUuid: string,
    ids: readonly string[],
    billingCycle: BillingCycle,
    claim: IdempotencyClaim | undefined,
  ): Promise<IdempotentResult<PurchaseRecord>> {
    for (let attempt = 1; ; attempt += 1) {
      const now = this.clock.now();
      const servers = await this.serversToBuy(ids, now);
      const url = this.views.issueUrl();
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
      const price = this.payments.priceMicro(billingCycle, servers, now);
      const transactions = this.payments.plan(
        {
          type: 'subscription',
          ownerUuid,
          subscriptionId: record.id,
          cycle: billingCycle,
          servers,
          now,
          description: `Subscription to ${servers.length} server${servers.length === 1 ? '' : 's'}`,
          describedAs: { code: 'subscription_purchased', values: { servers: servers.length } },
        },
        price,
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
        servers: servers.map((server) => ({ id: server.id })),
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
          if (attempt >= PURCHASE_ATTEMPTS) {
            throw new Error('purchase rolled back by 3 deadlocks in a row');
          }
      }
    }
  }

  /**
   * The servers of a purchase, in the client's order, each one the market lets a client select
   * now. Read without locks (batched with the reads of concurrent purchases): purchases never lock
   * server rows (report batches write them), so this is what the purchase's own statement would
   * see; capacity is checked there, under the client-set locks.
   */
  private async serversToBuy(ids: readonly string[], now: Date): Promise<SubscribableServer[]> {
    const found = await Promise.all(ids.map((id) => this.serverReads.submit(id, null)));
    return ids.map((id, i) => {
      const server = found[i];
      if (!server) throw SubscriptionsException.serverNotFound(id);
      if (!subscribable(server, now)) throw SubscriptionsException.serverUnavailable(server.name);
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
    const details = this.views.view(record, servers, [], now);
    const ids = serverIds(servers);
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
        serverIds: ids,
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
      serverIds: ids,
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
}

/**
 * docs/product/states.md#market-and-account-states Server disabled: only servers a client could select on the market can be bought:
 * not banned or hidden (below 95%), reporting (not stale) at 50% or more, with a running core
 * and an address clients can dial. The core and address rules are the market listing's own
 * (CORE_DOWN_STATES, hasDialableAddress); its capacity is checked when places are taken.
 */
export function subscribable(server: SubscribableServer, now: Date): boolean {
  const view = viewReliability(server, now);
  return (
    !view.banned &&
    !view.hidden &&
    view.available &&
    !isCoreDown(server.coreState) &&
    hasDialableAddress(server)
  );
}
