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
import { WithdrawalPayoutService } from './withdrawal-payout.service';

/**
 * Runs the payout worker every second while withdrawals are on (once per second across the
 * replicas, jobs/job-registry.ts; the worker's advisory lock keeps runs apart), and once at once
 * after each new withdrawal (WithdrawalsService asks the scheduler: `JobScheduler.runNow`).
 */
@Injectable()
export class WithdrawalPayoutJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private job: ScheduledJob | null = null;

  constructor(
    private readonly payouts: WithdrawalPayoutService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly scheduler: JobScheduler,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.withdrawals) {
      this.job = this.scheduler.start(JOBS.withdrawalPayouts, () => this.payouts.runOnce());
    }
  }

  onApplicationShutdown(): void {
    this.job?.stop();
    this.job = null;
  }
}
