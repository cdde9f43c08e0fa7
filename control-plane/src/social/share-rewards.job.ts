import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { PeriodicJob } from '../common/periodic-job';
import { TransactionRunner } from '../database/transaction-runner';
import { type ShareSettleOutcome, ShareRewardsService } from './share-rewards.service';

const SHARE_REWARDS_INTERVAL_MS = 60_000;
/** Shared by every replica: whoever holds it settles the due shares; the others skip. */
export const SHARE_REWARDS_LOCK_ID = 4_202_720;

/**
 * Every minute (issue 20 §2): pays (or forfeits) the share rewards whose 24 hours have passed.
 * One replica at a time (a session advisory lock held for the run); each share is settled in its
 * own transaction, once (ShareRewardsService).
 */
@Injectable()
export class ShareRewardsJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly every = new PeriodicJob(
    'Share rewards',
    SHARE_REWARDS_INTERVAL_MS,
    () => this.runOnce(),
    new Logger('ShareRewardsJob'),
  );

  constructor(
    private readonly rewards: ShareRewardsService,
    private readonly transactions: TransactionRunner,
  ) {}

  onApplicationBootstrap(): void {
    this.every.start();
  }

  onApplicationShutdown(): void {
    this.every.stop();
  }

  /** One run unless another replica is running one (then null). */
  runOnce(): Promise<ShareSettleOutcome | null> {
    return this.transactions.whileHolding(SHARE_REWARDS_LOCK_ID, () => this.rewards.settleDue());
  }
}
