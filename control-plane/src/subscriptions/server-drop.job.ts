import {
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { JOBS } from '../jobs/job-registry';
import { JobScheduler } from '../jobs/job-scheduler';
import type { ScheduledJob } from '../jobs/scheduled-job';
import { TransactionRunner } from '../database/transaction-runner';
import { UnableServersService } from './unable-servers.service';

/**
 * Once a minute across the replicas (advisory lock, one run at a time, like the billing job):
 * drops the servers that cannot serve from every subscription, refunding the unused time
 * (UnableServersService.dropDue). Renewals, activations and billing changes call the service
 * themselves; the unique drop row keeps the two from refunding a server twice.
 */
@Injectable()
export class ServerDropJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private job: ScheduledJob | null = null;

  constructor(
    private readonly unable: UnableServersService,
    private readonly transactions: TransactionRunner,
    private readonly scheduler: JobScheduler,
  ) {}

  onApplicationBootstrap(): void {
    this.job = this.scheduler.start(JOBS.serverDrop, () => this.runOnce());
  }

  onApplicationShutdown(): void {
    this.job?.stop();
  }

  /** Drops what is due unless another replica is doing it now (then null); answers how many. */
  runOnce(): Promise<number | null> {
    // The lock's transaction only holds the lock: each subscription is settled in its own.
    return this.transactions.exclusive(JOBS.serverDrop.lockId, () => this.unable.dropDue());
  }
}
