import {
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { JOBS } from '../jobs/job-registry';
import { JobScheduler } from '../jobs/job-scheduler';
import type { ScheduledJob } from '../jobs/scheduled-job';
import { TransactionRunner } from '../database/transaction-runner';
import { ServerReplacements } from './server-replacement.service';

/**
 * Once a minute across the replicas (advisory lock, one run at a time): replaces the servers blocked in their clients'
 * networks (ServerReplacements.replaceDue). Reachability also calls the service right after a
 * state changes; the two cannot replace a server twice (row lock and the unique row).
 */
@Injectable()
export class ServerReplacementJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private job: ScheduledJob | null = null;

  constructor(
    private readonly replacements: ServerReplacements,
    private readonly transactions: TransactionRunner,
    private readonly scheduler: JobScheduler,
  ) {}

  onApplicationBootstrap(): void {
    this.job = this.scheduler.start(JOBS.serverReplacement, () => this.runOnce());
  }

  onApplicationShutdown(): void {
    this.job?.stop();
  }

  /** Replaces what is due unless another replica is doing it now (then null); answers how many. */
  runOnce(): Promise<number | null> {
    // The lock's transaction only holds the lock: each subscription is settled in its own.
    return this.transactions.exclusive(JOBS.serverReplacement.lockId, () =>
      this.replacements.replaceDue(),
    );
  }
}
