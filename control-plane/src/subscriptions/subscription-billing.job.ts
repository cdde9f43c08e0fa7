import {
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { JOBS } from '../jobs/job-registry';
import { JobScheduler } from '../jobs/job-scheduler';
import type { ScheduledJob } from '../jobs/scheduled-job';
import { TransactionRunner } from '../database/transaction-runner';
import { type SettleResult, SubscriptionBillingService } from './subscription-billing.service';

/**
 * Once a minute: ends pauses that reached their limit, renews subscriptions whose paid time
 * ended (hourly blocks and monthly periods) or expires them. One run a minute across the replicas
 * (jobs/job-scheduler.ts), never two at once (advisory lock); each subscription is settled once
 * per paid period under its row lock, so a run taken over after a crash settles nothing twice.
 */
@Injectable()
export class SubscriptionBillingJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private job: ScheduledJob | null = null;

  constructor(
    private readonly billing: SubscriptionBillingService,
    private readonly transactions: TransactionRunner,
    private readonly scheduler: JobScheduler,
  ) {}

  onApplicationBootstrap(): void {
    this.job = this.scheduler.start(JOBS.subscriptionBilling, () => this.runOnce());
  }

  onApplicationShutdown(): void {
    this.job?.stop();
  }

  /** Settles what is due unless another replica is doing it now (then null). */
  runOnce(): Promise<SettleResult | null> {
    // The lock's transaction only holds the lock: each subscription is settled in its own.
    return this.transactions.exclusive(JOBS.subscriptionBilling.lockId, () =>
      this.billing.settleDue(),
    );
  }
}
