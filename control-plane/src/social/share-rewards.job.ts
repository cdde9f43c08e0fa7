import {
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { JOBS } from '../jobs/job-registry';
import { JobScheduler } from '../jobs/job-scheduler';
import type { ScheduledJob } from '../jobs/scheduled-job';
import { TransactionRunner } from '../database/transaction-runner';
import { type ShareSettleOutcome, ShareRewardsService } from './share-rewards.service';

/**
 * Every minute: pays (or forfeits) the share rewards whose 24 hours have passed.
 * Once a minute across the replicas, one run at a time (a session advisory lock held for it); each share is settled in its
 * own transaction, once (ShareRewardsService).
 */
@Injectable()
export class ShareRewardsJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private job: ScheduledJob | null = null;

  constructor(
    private readonly rewards: ShareRewardsService,
    private readonly transactions: TransactionRunner,
    private readonly scheduler: JobScheduler,
  ) {}

  onApplicationBootstrap(): void {
    this.job = this.scheduler.start(JOBS.shareRewards, () => this.runOnce());
  }

  onApplicationShutdown(): void {
    this.job?.stop();
  }

  /** One run unless another replica is running one (then null). */
  runOnce(): Promise<ShareSettleOutcome | null> {
    return this.transactions.whileHolding(JOBS.shareRewards.lockId, () => this.rewards.settleDue());
  }
}
