import {
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { JOBS } from '../jobs/job-registry';
import { JobScheduler } from '../jobs/job-scheduler';
import type { ScheduledJob } from '../jobs/scheduled-job';
import { TransactionRunner } from '../database/transaction-runner';
import type { RunOptions } from './reward-run.service';
import { type RewardsTick, RewardsTickService } from './rewards-tick.service';

/**
 * Every 5 minutes: the monthly reward run, escrows and ban mails (RewardsTickService.tick). Once
 * per 5 minutes across the replicas (jobs/job-scheduler.ts), one run at a time (a session
 * advisory lock held for the run; each batch commits on its own).
 */
@Injectable()
export class RewardsJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private job: ScheduledJob | null = null;

  constructor(
    private readonly rewards: RewardsTickService,
    private readonly transactions: TransactionRunner,
    private readonly scheduler: JobScheduler,
  ) {}

  onApplicationBootstrap(): void {
    this.job = this.scheduler.start(JOBS.rewards, () => this.runOnce());
  }

  onApplicationShutdown(): void {
    this.job?.stop();
  }

  /** One tick unless another replica is running one (then null). */
  runOnce(options: RunOptions = {}): Promise<RewardsTick | null> {
    return this.transactions.whileHolding(JOBS.rewards.lockId, () => this.rewards.tick(options));
  }
}
