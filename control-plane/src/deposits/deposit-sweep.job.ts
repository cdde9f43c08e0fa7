import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  Inject,
} from '@nestjs/common';
import { PeriodicJob } from '../common/periodic-job';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { DepositSweepService } from './deposit-sweep.service';

/** How often the sweeper looks for addresses to sweep and sweeps to settle. */
export const SWEEP_INTERVAL_MS = 5000;

/** Runs the sweeper while sweeps are on, on one replica at a time (its advisory lock). */
@Injectable()
export class DepositSweepJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DepositSweepJob');
  private readonly every = new PeriodicJob(
    'Deposit sweeps',
    SWEEP_INTERVAL_MS,
    () => this.sweeps.runOnce(),
    this.logger,
  );

  constructor(
    private readonly sweeps: DepositSweepService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.sweeps) this.every.start();
  }

  onApplicationShutdown(): void {
    this.every.stop();
  }
}
