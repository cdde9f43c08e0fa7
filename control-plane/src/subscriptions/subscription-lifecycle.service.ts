import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type RotateSubscriptionUrlResponse,
  type SubscriptionActionResponse,
  SUBSCRIPTION_MESSAGES,
} from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import { type Transaction, TransactionRunner } from '../database/transaction-runner';
import { PremiumServers } from '../market/premium-servers';
import { ClientSetsService } from '../client-sets/client-sets.service';
import { serverIds } from './subscription-links';
import { PAUSE_RULES, pauseAllowance } from './subscription-pricing';
import { SubscriptionViewsService } from './subscription-views.service';
import { type SubscriptionRecord, SubscriptionsRepository } from './subscriptions.repository';
import { SubscriptionsException } from './subscriptions.exception';
import { SubscriptionsNotifier } from './subscriptions.notifier';

/**
 * The changes of a subscription that move no money (docs/product/states.md#subscription-and-reliability-states): pause and its end, delete,
 * auto-renew, a new URL. Each runs in one database transaction under the subscription's row
 * lock, with the node client sets it changes; the realtime event follows the commit.
 */
@Injectable()
export class SubscriptionLifecycleService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly repository: SubscriptionsRepository,
    private readonly clientSets: ClientSetsService,
    private readonly views: SubscriptionViewsService,
    private readonly notifier: SubscriptionsNotifier,
    private readonly premium: PremiumServers,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * docs/product/states.md#subscription-and-reliability-states Pause, within the allowance of docs/product/constants.md#billing-and-the-economy (hourly: 2 in any 24 hours; monthly: 1
   * free in any 6 months). The paid time stops; the uuid leaves the nodes; the pause ends by
   * itself after 8 hours (hourly) or 7 days (monthly). Beyond the allowance: 409, nothing changes.
   */
  async pause(ownerUuid: string, id: string): Promise<SubscriptionActionResponse> {
    const now = this.clock.now();
    const response = await this.transactions.runRetrying(async (tx) => {
      const record = await this.lockOwned(tx, ownerUuid, id);
      if (record.status !== 'active') throw SubscriptionsException.of('not_active');
      const rule = PAUSE_RULES[record.billingCycle];
      const starts = await this.repository.pauseStarts([id], rule.windowStart(now), tx);
      const allowance = pauseAllowance(record.billingCycle, starts.get(id) ?? [], now);
      if (allowance.pausesLeft === 0) {
        throw SubscriptionsException.pauseAllowanceUsed(
          record.billingCycle,
          allowance.nextPauseAvailableAt ?? now.toISOString(),
        );
      }
      const pauseEndsAt = new Date(now.getTime() + rule.maxPauseMs);
      await this.repository.insertPause(tx, {
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
      await this.repository.update(tx, id, changes);
      const servers = await this.repository.serversFor(tx, id, this.premium.operatorEmail);
      // The paused subscription keeps its slots (it resumes by itself) but leaves the nodes.
      await this.clientSets.disableClients(tx, serverIds(servers), record.vlessUuid);
      const updated = { ...record, ...changes };
      return this.views.actionResponse(tx, SUBSCRIPTION_MESSAGES.paused, updated, servers, now);
    });
    this.notifier.changed();
    return response;
  }

  /**
   * Ends a client pause in `tx` (the caller holds the row lock): the paid time runs on by
   * `pausedMs`, and the uuid is back on the nodes, where its slots were kept.
   */
  async resume(
    tx: Transaction,
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
    await this.repository.update(tx, record.id, changes);
    await this.repository.closePause(tx, record.id, resumedAt);
    const servers = await this.repository.serversFor(tx, record.id, this.premium.operatorEmail);
    await this.clientSets.enableClients(tx, serverIds(servers), record.vlessUuid);
    const updated = { ...record, ...changes };
    return this.views.actionResponse(tx, message, updated, servers, this.clock.now());
  }

  /** docs/product/states.md#subscription-and-reliability-states: deleted from either state; its uuid leaves every node, its URL stops working. */
  async remove(ownerUuid: string, id: string): Promise<void> {
    const now = this.clock.now();
    await this.transactions.runRetrying(async (tx) => {
      const record = await this.lockOwned(tx, ownerUuid, id);
      const servers = await this.repository.serversFor(tx, id, this.premium.operatorEmail);
      await this.clientSets.removeClients(tx, serverIds(servers), record.vlessUuid);
      await this.repository.closePause(tx, id, now);
      await this.repository.update(tx, id, {
        status: 'deleted',
        deletedAt: now,
        pausedAt: null,
        pauseEndsAt: null,
        pauseReason: null,
        urlTokenHash: null,
        urlTokenSealed: null,
      });
      await this.repository.dropServers(tx, id);
    });
    this.notifier.changed();
  }

  /**
   * docs/product/records.md#dashboard-records autoRenew: whether the billing job renews the subscription at the end of its
   * period (paying for it) or lets it expire there. Moves no money.
   */
  async setAutoRenew(
    ownerUuid: string,
    id: string,
    autoRenew: boolean,
  ): Promise<SubscriptionActionResponse> {
    const now = this.clock.now();
    const response = await this.transactions.run(async (tx) => {
      const record = await this.lockOwned(tx, ownerUuid, id);
      if (record.status === 'deleted') throw SubscriptionsException.of('not_found');
      await this.repository.update(tx, id, { autoRenew });
      const servers = await this.repository.serversFor(tx, id, this.premium.operatorEmail);
      return this.views.actionResponse(
        tx,
        autoRenew ? SUBSCRIPTION_MESSAGES.autoRenewOn : SUBSCRIPTION_MESSAGES.autoRenewOff,
        { ...record, autoRenew },
        servers,
        now,
      );
    });
    this.notifier.changed();
    return response;
  }

  /** A new subscription URL; the old one answers 404 from the commit on. */
  async rotateUrl(ownerUuid: string, id: string): Promise<RotateSubscriptionUrlResponse> {
    const url = this.views.issueUrl();
    await this.transactions.run(async (tx) => {
      await this.lockOwned(tx, ownerUuid, id);
      await this.repository.update(tx, id, {
        urlTokenHash: url.hash,
        urlTokenSealed: url.sealed,
      });
    });
    return {
      success: true,
      message: SUBSCRIPTION_MESSAGES.urlRotated,
      subscriptionUrl: url.url,
    };
  }

  /** The owner's subscription, locked until `tx` ends; 404 when it is not one (or deleted). */
  async lockOwned(tx: Transaction, ownerUuid: string, id: string): Promise<SubscriptionRecord> {
    const record = await this.repository.lockOwned(tx, ownerUuid, id);
    if (!record) throw SubscriptionsException.of('not_found');
    return record;
  }
}
