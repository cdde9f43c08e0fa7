import {
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { JOBS } from '../jobs/job-registry';
import { JobScheduler } from '../jobs/job-scheduler';
import type { ScheduledJob } from '../jobs/scheduled-job';
import { TransactionRunner } from '../database/transaction-runner';
import { ManualServersService } from './manual-servers.service';

/**
 * Once a minute (docs/product/states.md#subscription-and-reliability-states): the VLESS check of every server added without the agent
 * (ManualServersService.checkAll). Its own job, apart from the reliability sweep, because it
 * waits on the network (up to 10 s per server, 16 at a time): the sweep and the market's decay
 * must not wait for it. One run a minute across the replicas (jobs/job-scheduler.ts); a run
 * still going when the next minute comes is not doubled: the advisory lock keeps the next out.
 */
@Injectable()
export class ManualServerCheckJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private job: ScheduledJob | null = null;

  constructor(
    private readonly manual: ManualServersService,
    private readonly transactions: TransactionRunner,
    private readonly scheduler: JobScheduler,
  ) {}

  onApplicationBootstrap(): void {
    this.job = this.scheduler.start(JOBS.manualServerChecks, () => this.runOnce());
  }

  onApplicationShutdown(): void {
    this.job?.stop();
  }

  /** Runs the checks unless another replica is; returns how many servers passed, or null. */
  runOnce(): Promise<number | null> {
    return this.transactions.exclusive(JOBS.manualServerChecks.lockId, () =>
      this.manual.checkAll(),
    );
  }
}
