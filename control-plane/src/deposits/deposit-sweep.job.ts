import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { JOBS } from '../jobs/job-registry';
import { JobScheduler } from '../jobs/job-scheduler';
import type { ScheduledJob } from '../jobs/scheduled-job';
import { DepositSweepService } from './deposit-sweep.service';

/**
 * Runs the sweeper every 5 seconds while sweeps are on (once per period across the replicas;
 * the sweeper's advisory lock keeps runs apart).
 */
@Injectable()
export class DepositSweepJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private job: ScheduledJob | null = null;

  constructor(
    private readonly sweeps: DepositSweepService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly scheduler: JobScheduler,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.sweeps) {
      this.job = this.scheduler.start(JOBS.depositSweeps, () => this.sweeps.runOnce());
    }
  }

  onApplicationShutdown(): void {
    this.job?.stop();
  }
}
