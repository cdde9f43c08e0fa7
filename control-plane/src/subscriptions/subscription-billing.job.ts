import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { PeriodicJob } from '../common/periodic-job';
import { TransactionRunner } from '../database/transaction-runner';
import { type SettleResult, SubscriptionBillingService } from './subscription-billing.service';

const BILLING_INTERVAL_MS = 60_000;
/** Shared by every replica: whoever holds it this minute settles the subscriptions. */
const BILLING_LOCK_ID = 4_202_640;

/**
 * Once a minute: ends pauses that reached their limit, renews subscriptions whose paid time
 * ended (hourly blocks and monthly periods) or expires them. Idempotent per period, and only one
 * replica runs it at a time (advisory lock).
 */
@Injectable()
export class SubscriptionBillingJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly every = new PeriodicJob(
    'Subscription billing',
    BILLING_INTERVAL_MS,
    () => this.runOnce(),
    new Logger('SubscriptionBillingJob'),
  );

  constructor(
    private readonly billing: SubscriptionBillingService,
    private readonly transactions: TransactionRunner,
  ) {}

  onApplicationBootstrap(): void {
    this.every.start();
  }

  onApplicationShutdown(): void {
    this.every.stop();
  }

  /** Settles what is due unless another replica is doing it now (then null). */
  runOnce(): Promise<SettleResult | null> {
    // The lock's transaction only holds the lock: each subscription is settled in its own.
    return this.transactions.exclusive(BILLING_LOCK_ID, () => this.billing.settleDue());
  }
}
