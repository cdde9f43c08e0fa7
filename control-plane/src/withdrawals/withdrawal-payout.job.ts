import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { PeriodicJob } from '../common/periodic-job';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { WithdrawalPayoutService } from './withdrawal-payout.service';

/** How often the worker looks for payouts to make or to confirm (one small query when none). */
export const PAYOUT_INTERVAL_MS = 1000;

/**
 * Runs the payout worker every second while withdrawals are on, on one replica at a time (its
 * advisory lock), and once at once after each new withdrawal (`kick`).
 */
@Injectable()
export class WithdrawalPayoutJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WithdrawalPayoutJob');
  private readonly every = new PeriodicJob(
    'Withdrawal payouts',
    PAYOUT_INTERVAL_MS,
    () => this.payouts.runOnce(),
    this.logger,
  );
  private stopped = false;

  constructor(
    private readonly payouts: WithdrawalPayoutService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.withdrawals) this.every.start();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    this.every.stop();
  }

  /** A run now, unless one is going (its next tick, a second later, picks the new one up). */
  kick(): void {
    if (!this.stopped && this.config.withdrawals) void this.every.tick();
  }
}
