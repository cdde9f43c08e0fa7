import {
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { JOBS } from '../jobs/job-registry';
import { JobScheduler } from '../jobs/job-scheduler';
import type { ScheduledJob } from '../jobs/scheduled-job';
import { TransactionRunner } from '../database/transaction-runner';
import { DepositAddressScanner, type ScanResult } from './deposit-address-scanner.service';

/** Runs the deposit-address scanner each second (docs/deposits.md#watching). */
@Injectable()
export class DepositAddressWatcherJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private job: ScheduledJob | null = null;

  constructor(
    private readonly scanner: DepositAddressScanner,
    private readonly transactions: TransactionRunner,
    private readonly scheduler: JobScheduler,
  ) {}

  onApplicationBootstrap(): void {
    if (this.scanner.enabled)
      this.job = this.scheduler.start(JOBS.depositAddressWatcher, () => this.runOnce());
  }

  onApplicationShutdown(): void {
    this.job?.stop();
  }

  /** One scan unless another replica is scanning (null then). */
  runOnce(): Promise<ScanResult | null> {
    return this.transactions.whileHolding(JOBS.depositAddressWatcher.lockId, () =>
      this.scanner.tick(),
    );
  }
}
