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
import { ReachabilityUpkeepService } from './reachability-upkeep.service';

/**
 * Reachability's periodic upkeep (ReachabilityUpkeepService.upkeep: pruning, and the port
 * regeneration of servers still blocked), every REACHABILITY_JOB_INTERVAL_MS across the
 * replicas, one run at a time (a session advisory lock).
 */
@Injectable()
export class ReachabilityJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private job: ScheduledJob | null = null;

  constructor(
    private readonly upkeep: ReachabilityUpkeepService,
    private readonly transactions: TransactionRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly scheduler: JobScheduler,
  ) {}

  onApplicationBootstrap(): void {
    this.job = this.scheduler.start(JOBS.reachabilityUpkeep, () => this.runOnce(), {
      intervalMs: this.config.reachability.jobIntervalMs,
    });
  }

  onApplicationShutdown(): void {
    this.job?.stop();
  }

  /** One upkeep unless another replica's is going (then null); the servers it regenerated. */
  runOnce(): Promise<number | null> {
    return this.transactions.whileHolding(JOBS.reachabilityUpkeep.lockId, () =>
      this.upkeep.upkeep(),
    );
  }
}
