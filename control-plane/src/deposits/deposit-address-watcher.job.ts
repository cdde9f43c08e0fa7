import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { PeriodicJob } from '../common/periodic-job';
import { TransactionRunner } from '../database/transaction-runner';
import { DepositAddressScanner, type ScanResult } from './deposit-address-scanner.service';

export const ADDRESS_WATCH_INTERVAL_MS = 1000;
/** Shared by every replica: one scanner reads the chain at a time. */
export const ADDRESS_WATCH_LOCK_ID = 4_202_673;

/** Runs the deposit-address scanner each second (docs/deposits.md#watching). */
@Injectable()
export class DepositAddressWatcherJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DepositAddressWatcherJob');
  private readonly every = new PeriodicJob(
    'Deposit address watcher',
    ADDRESS_WATCH_INTERVAL_MS,
    () => this.runOnce(),
    this.logger,
  );

  constructor(
    private readonly scanner: DepositAddressScanner,
    private readonly transactions: TransactionRunner,
  ) {}

  onApplicationBootstrap(): void {
    if (this.scanner.enabled) this.every.start();
  }

  onApplicationShutdown(): void {
    this.every.stop();
  }

  /** One scan unless another replica is scanning (null then). */
  runOnce(): Promise<ScanResult | null> {
    return this.transactions.whileHolding(ADDRESS_WATCH_LOCK_ID, () => this.scanner.tick());
  }
}
