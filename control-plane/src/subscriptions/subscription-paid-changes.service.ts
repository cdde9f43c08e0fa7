import { Inject, Injectable } from '@nestjs/common';
import {
  type BillingCycle,
  type ChangeBillingTypeResponse,
  type SubscriptionActionResponse,
  SUBSCRIPTION_MESSAGES,
} from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import { sslNumber } from '../common/money';
import { type Transaction, TransactionRunner } from '../database/transaction-runner';
import { PremiumServers } from '../market/premium-servers';
import { ClientSetRefusal } from '../client-sets/client-sets.repository';
import { ClientSetsService } from '../client-sets/client-sets.service';
import { IdempotencyService } from '../wallet/idempotency.service';
import { UnableServersService } from './unable-servers.service';
import { serverIds } from './subscription-links';
import { SubscriptionLifecycleService } from './subscription-lifecycle.service';
import { SubscriptionPaymentsService } from './subscription-payments.service';
import { periodMs } from './subscription-pricing';
import { micro } from './subscription-view';
import { SubscriptionViewsService } from './subscription-views.service';
import { type SubscribableServer, SubscriptionsRepository } from './subscriptions.repository';
import { SubscriptionsException } from './subscriptions.exception';
import { SubscriptionsNotifier } from './subscriptions.notifier';

/**
 * The client's calls that may pay a new period now (docs/product/states.md#subscription-and-reliability-states Activate, change billing type).
 * Each is one database transaction with its Idempotency-Key (IdempotencyService), under the
 * subscription's row lock; servers that cannot serve are dropped first and never paid for
 *. Run again when PostgreSQL rolls one back for a deadlock.
 */
@Injectable()
export class SubscriptionPaidChangesService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly repository: SubscriptionsRepository,
    private readonly idempotency: IdempotencyService,
    private readonly payments: SubscriptionPaymentsService,
    private readonly lifecycle: SubscriptionLifecycleService,
    private readonly unableServers: UnableServersService,
    private readonly clientSets: ClientSetsService,
    private readonly views: SubscriptionViewsService,
    private readonly notifier: SubscriptionsNotifier,
    private readonly premium: PremiumServers,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * docs/product/states.md#subscription-and-reliability-states Activate. A client pause resumes for free (the paid time runs on from where it
   * stopped). An expired subscription, or one paused because a billing change could not be paid,
   * pays one period of its billing cycle now: 402 with balance and required when short.
   */
  async activate(
    ownerUuid: string,
    id: string,
    idempotencyKey: string | undefined,
  ): Promise<SubscriptionActionResponse> {
    const now = this.clock.now();
    const result = await this.transactions.retrying(() =>
      this.idempotency.once(
        ownerUuid,
        idempotencyKey,
        { route: `activate:${id}`, body: {} },
        async (tx) => {
          const record = await this.lifecycle.lockOwned(tx, ownerUuid, id);
          if (record.status === 'paused' && record.pauseReason === 'user' && record.pausedAt) {
            const pausedMs = now.getTime() - record.pausedAt.getTime();
            const message = SUBSCRIPTION_MESSAGES.activated;
            return this.lifecycle.resume(tx, record, now, pausedMs, message);
          }
          if (record.status !== 'paused' && record.status !== 'expired') {
            throw SubscriptionsException.of('not_paused');
          }
          // Servers that cannot serve are dropped, not paid for.
          const { kept: current } = await this.unableServers.dropUnable(
            tx,
            record,
            await this.repository.serversFor(tx, id, this.premium.operatorEmail),
            now,
          );
          if (current.length === 0) throw SubscriptionsException.of('no_servers_left');
          // Its slots were given up: take them again, under the same locks as a purchase.
          const servers = await this.repository.lockServers(
            tx,
            serverIds(current),
            this.premium.operatorEmail,
          );
          await this.takePlaces(tx, servers, record.vlessUuid);
          const balance = await this.payments.lockBalance(tx, ownerUuid);
          const price = this.payments.priceMicro(record.billingCycle, servers, now);
          if (balance < price) throw SubscriptionsException.activateInsufficient(balance, price);
          const payment = await this.payments.charge(tx, {
            type: 'activation',
            ownerUuid,
            subscriptionId: id,
            cycle: record.billingCycle,
            servers: current,
            now,
            description: 'Subscription activated',
            describedAs: { code: 'subscription_activated', values: {} },
          });
          const changes = {
            status: 'active' as const,
            periodIndex: record.periodIndex + 1,
            expiresAt: new Date(now.getTime() + periodMs(record.billingCycle)),
            pausedAt: null,
            pauseEndsAt: null,
            pauseReason: null,
          };
          await this.repository.update(tx, id, changes);
          const response = await this.views.actionResponse(
            tx,
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
    if (!result.replayed) this.notifier.changed();
    return result.body;
  }

  /**
   * docs/product/states.md#subscription-and-reliability-states, docs/product/constants.md#billing-and-the-economy change billing type: 10 SSL per server upfront for a new period of the new
   * cycle starting now, no refund of the remaining time. When the wallet cannot pay it, the
   * subscription is paused with the new cycle (docs/product/states.md#subscription-and-reliability-states: the automatic pause) and activating it
   * later pays that period.
   */
  async changeType(
    ownerUuid: string,
    id: string,
    newCycle: BillingCycle,
    idempotencyKey: string | undefined,
  ): Promise<ChangeBillingTypeResponse> {
    const now = this.clock.now();
    const result = await this.transactions.retrying(() =>
      this.idempotency.once(
        ownerUuid,
        idempotencyKey,
        { route: `change-type:${id}`, body: { newBillingCycle: newCycle } },
        async (tx): Promise<ChangeBillingTypeResponse> => {
          const record = await this.lifecycle.lockOwned(tx, ownerUuid, id);
          if (record.status !== 'active') throw SubscriptionsException.of('not_active');
          if (record.billingCycle === newCycle)
            throw SubscriptionsException.sameBillingCycle(newCycle);
          // A new period is paid only for the servers that can serve.
          const { kept: servers } = await this.unableServers.dropUnable(
            tx,
            record,
            await this.repository.serversFor(tx, id, this.premium.operatorEmail),
            now,
          );
          if (servers.length === 0) throw SubscriptionsException.of('no_servers_left');
          const price = this.payments.priceMicro(newCycle, servers, now);
          const balance = await this.payments.lockBalance(tx, ownerUuid);
          if (balance < price) {
            const changes = {
              status: 'paused' as const,
              billingCycle: newCycle,
              pausedAt: now,
              pauseEndsAt: null,
              pauseReason: 'insufficient_funds' as const,
            };
            await this.repository.update(tx, id, changes);
            await this.clientSets.removeClients(tx, serverIds(servers), record.vlessUuid);
            const view = await this.views.viewIn(tx, { ...record, ...changes }, servers, now);
            return {
              success: true,
              message: SUBSCRIPTION_MESSAGES.automaticallyPaused(newCycle),
              subscription: view,
              walletBalance: sslNumber(balance),
              walletBalanceMicro: micro(balance),
              automaticallyPaused: true,
              availableBalance: sslNumber(balance),
              requiredAmount: sslNumber(price),
              chargedMicro: '0',
              paymentId: null,
            };
          }
          const payment = await this.payments.charge(tx, {
            type: 'billing_change',
            ownerUuid,
            subscriptionId: id,
            cycle: newCycle,
            servers,
            now,
            description: `Billing changed to ${newCycle}`,
            describedAs: { code: 'billing_changed', values: { cycle: newCycle } },
          });
          const changes = {
            billingCycle: newCycle,
            periodIndex: record.periodIndex + 1,
            expiresAt: new Date(now.getTime() + periodMs(newCycle)),
          };
          await this.repository.update(tx, id, changes);
          const view = await this.views.viewIn(tx, { ...record, ...changes }, servers, now);
          return {
            success: true,
            message: SUBSCRIPTION_MESSAGES.typeChanged(newCycle),
            subscription: view,
            walletBalance: sslNumber(payment.balanceMicro),
            walletBalanceMicro: micro(payment.balanceMicro),
            automaticallyPaused: false,
            chargedMicro: micro(payment.chargedMicro),
            paymentId: payment.paymentId,
          };
        },
      ),
    );
    if (!result.replayed) this.notifier.changed();
    return result.body;
  }

  /**
   * docs/product/constants.md#market-prices-and-limits: a server takes at most its tier's max clients (manual servers: tier1's 10), the
   * rule a purchase runs (client_sets_take): the client's places again, or 409 server_full.
   */
  private async takePlaces(
    tx: Transaction,
    servers: readonly SubscribableServer[],
    clientUuid: string,
  ): Promise<void> {
    try {
      await this.clientSets.take(
        tx,
        servers.map((server) => ({ id: server.id })),
        clientUuid,
      );
    } catch (error) {
      if (!(error instanceof ClientSetRefusal)) throw error;
      const server = servers.find((candidate) => candidate.id === error.serverId);
      if (error.reason === 'server_full' && server) {
        throw SubscriptionsException.serverFull(server.name);
      }
      throw SubscriptionsException.of('not_found');
    }
  }
}
