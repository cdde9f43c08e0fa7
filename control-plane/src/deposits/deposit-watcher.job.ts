import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { JOBS } from '../jobs/job-registry';
import { JobScheduler } from '../jobs/job-scheduler';
import type { ScheduledJob } from '../jobs/scheduled-job';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { TransactionRunner } from '../database/transaction-runner';
import { DepositWatcherService } from './deposit-watcher.service';

/**
 * Each second while Solana deposits are configured, across the replicas: one look at the deposit
 * address for transfers that pay open requests (DepositWatcherService.watch), never two at once
 * (advisory lock).
 */
@Injectable()
export class DepositWatcherJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private job: ScheduledJob | null = null;

  constructor(
    private readonly watcher: DepositWatcherService,
    private readonly transactions: TransactionRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly scheduler: JobScheduler,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.solana)
      this.job = this.scheduler.start(JOBS.depositWatcher, () => this.runOnce());
  }

  onApplicationShutdown(): void {
    this.job?.stop();
  }

  /** One look at the chain unless another replica is looking; the credits made, or null. */
  runOnce(): Promise<number | null> {
    return this.transactions.exclusive(JOBS.depositWatcher.lockId, () => this.watcher.watch());
  }
}
