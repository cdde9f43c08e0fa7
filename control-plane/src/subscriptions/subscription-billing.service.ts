import { Inject, Injectable } from '@nestjs/common';
import { SUBSCRIPTION_MESSAGES } from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import { TransactionRunner } from '../database/transaction-runner';
import { PremiumServers } from '../market/premium-servers';
import { ClientSetsService } from '../client-sets/client-sets.service';
import { UnableServersService } from './unable-servers.service';
import { serverIds } from './subscription-links';
import { SubscriptionLifecycleService } from './subscription-lifecycle.service';
import { SubscriptionPaymentsService } from './subscription-payments.service';
import { periodMs } from './subscription-pricing';
import { SubscriptionsRepository } from './subscriptions.repository';
import { SubscriptionsNotifier } from './subscriptions.notifier';

const JOB_BATCH = 200;
const FIRST_ID = '00000000-0000-0000-0000-000000000000';

export interface SettleResult {
  renewed: number;
  expired: number;
  resumed: number;
  /** Servers dropped at renewal because they could not serve. */
  dropped: number;
}

/**
 * The end of paid time and of pauses, as the minute job (SubscriptionBillingJob) settles them:
 * pauses that reached their limit resume, and subscriptions whose period ended renew (hourly
 * blocks and monthly periods, paying for them) or expire.
 */
@Injectable()
export class SubscriptionBillingService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly repository: SubscriptionsRepository,
    private readonly payments: SubscriptionPaymentsService,
    private readonly lifecycle: SubscriptionLifecycleService,
    private readonly unableServers: UnableServersService,
    private readonly clientSets: ClientSetsService,
    private readonly notifier: SubscriptionsNotifier,
    private readonly premium: PremiumServers,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * What the minute job does (idempotent: each step re-checks the row under its lock, and a
   * renewal's ledger movement carries `renewal:<id>:<period>`, which the ledger takes once):
   * pauses that reached their end resume; active subscriptions whose paid time ended renew
   * when they auto-renew and the wallet can pay, and expire otherwise (their uuid leaves the
   * nodes). Each subscription is settled in its own transaction.
   */
  async settleDue(): Promise<SettleResult> {
    const now = this.clock.now();
    const result: SettleResult = { renewed: 0, expired: 0, resumed: 0, dropped: 0 };
    for (let after = FIRST_ID; ;) {
      const due = await this.repository.dueForResume(now, after, JOB_BATCH);
      for (const id of due) {
        if (await this.resumeDue(id, now)) result.resumed += 1;
      }
      if (due.length < JOB_BATCH) break;
      after = due[due.length - 1]!;
    }
    for (let after = FIRST_ID; ;) {
      const due = await this.repository.dueForRenewal(now, after, JOB_BATCH);
      for (const id of due) {
        const outcome = await this.renewOrExpire(id, now);
        if (outcome?.status === 'renewed') result.renewed += 1;
        if (outcome?.status === 'expired') result.expired += 1;
        result.dropped += outcome?.dropped ?? 0;
      }
      if (due.length < JOB_BATCH) break;
      after = due[due.length - 1]!;
    }
    // The client dashboard re-reads and shows the dropped servers.
    if (result.dropped > 0) this.notifier.serversDropped();
    if (result.renewed + result.expired + result.resumed + result.dropped > 0) {
      this.notifier.changed();
    }
    return result;
  }

  /** docs/product/constants.md#billing-and-the-economy: a pause past its limit ends by itself, as if resumed at the limit. */
  private resumeDue(id: string, now: Date): Promise<boolean> {
    return this.transactions.runRetrying(async (tx) => {
      const record = await this.repository.lockForJob(tx, id);
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
      const pausedMs = record.pauseEndsAt.getTime() - record.pausedAt.getTime();
      const message = SUBSCRIPTION_MESSAGES.activated;
      await this.lifecycle.resume(tx, record, record.pauseEndsAt, pausedMs, message);
      return true;
    });
  }

  /**
   * Renews one subscription whose paid time ended, or expires it. First its servers
   * that cannot serve (banned, or hidden below 95% for an hour) are dropped, refunded for any
   * paid time they could not serve, and the renewal charges and rewards only the servers that
   * remain; with none left it expires (the dashboard lists why each server went).
   */
  private renewOrExpire(
    id: string,
    now: Date,
  ): Promise<{ status: 'renewed' | 'expired'; dropped: number } | null> {
    return this.transactions.runRetrying(async (tx) => {
      const record = await this.repository.lockForJob(tx, id);
      if (!record || record.status !== 'active' || record.expiresAt > now) return null;
      const { kept: servers, dropped } = await this.unableServers.dropUnable(
        tx,
        record,
        await this.repository.serversFor(tx, id, this.premium.operatorEmail),
        now,
      );
      if (record.autoRenew && servers.length > 0) {
        const price = this.payments.priceMicro(record.billingCycle, servers, now);
        const balance = await this.payments.lockBalance(tx, record.ownerUuid);
        if (balance >= price) {
          const period = record.periodIndex + 1;
          await this.payments.charge(tx, {
            type: 'subscription',
            ownerUuid: record.ownerUuid,
            subscriptionId: id,
            cycle: record.billingCycle,
            servers,
            now,
            description: 'Subscription renewed',
            describedAs: { code: 'subscription_renewed', values: {} },
            externalRef: `renewal:${id}:${period}`,
          });
          await this.repository.update(tx, id, {
            periodIndex: period,
            expiresAt: new Date(record.expiresAt.getTime() + periodMs(record.billingCycle)),
          });
          return { status: 'renewed' as const, dropped };
        }
      }
      await this.repository.update(tx, id, { status: 'expired' });
      await this.clientSets.removeClients(tx, serverIds(servers), record.vlessUuid);
      return { status: 'expired' as const, dropped };
    });
  }
}
