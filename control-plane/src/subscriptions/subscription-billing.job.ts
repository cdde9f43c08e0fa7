import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { isDatabaseUnavailable } from '../common/database-unavailable';
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
  private readonly logger = new Logger('SubscriptionBillingJob');
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly billing: SubscriptionBillingService,
    private readonly transactions: TransactionRunner,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.runOnce().catch((error: unknown) =>
        // A database outage is not a bug: a warning, and the next run catches up.
        isDatabaseUnavailable(error)
          ? this.logger.warn(
              { err: { message: (error as Error).message } },
              'Subscription billing failed: database unavailable',
            )
          : this.logger.error({ err: error }, 'Subscription billing failed'),
      );
    }, BILLING_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Settles what is due unless another replica is doing it now (then null). */
  runOnce(): Promise<SettleResult | null> {
    // The lock's transaction only holds the lock: each subscription is settled in its own.
    return this.transactions.exclusive(BILLING_LOCK_ID, () => this.billing.settleDue());
  }
}
