import {
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { JOBS } from '../jobs/job-registry';
import { JobScheduler } from '../jobs/job-scheduler';
import type { ScheduledJob } from '../jobs/scheduled-job';
import { TransactionRunner } from '../database/transaction-runner';
import { ReliabilitySweepService } from './reliability-sweep.service';

/**
 * Once a minute (docs/product/states.md#subscription-and-reliability-states): the reliability history, the 95%/14-day lifecycle and the market's
 * clock-dependent columns (ReliabilitySweepService.run). One run a minute across the replicas
 * (jobs/job-scheduler.ts); its transaction-scoped advisory lock keeps any other run (a test's,
 * one taken over from a stopped replica) from overlapping it.
 */
@Injectable()
export class ReliabilitySweepJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private job: ScheduledJob | null = null;

  constructor(
    private readonly sweep: ReliabilitySweepService,
    private readonly transactions: TransactionRunner,
    private readonly scheduler: JobScheduler,
  ) {}

  onApplicationBootstrap(): void {
    this.job = this.scheduler.start(JOBS.reliabilitySweep, () => this.runOnce());
  }

  onApplicationShutdown(): void {
    this.job?.stop();
  }

  /** Runs the sweep unless another replica is running it; returns the servers it changed, or null. */
  runOnce(): Promise<number | null> {
    return this.transactions.exclusive(JOBS.reliabilitySweep.lockId, () => this.sweep.run());
  }
}
