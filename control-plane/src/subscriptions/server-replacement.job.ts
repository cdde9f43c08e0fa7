import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { PeriodicJob } from '../common/periodic-job';
import { TransactionRunner } from '../database/transaction-runner';
import { ServerReplacements } from './server-replacement.service';

const JOB_INTERVAL_MS = 60_000;
/** Shared by every replica: whoever holds it this minute replaces blocked servers. */
export const REPLACEMENT_LOCK_ID = 4_202_674;

/**
 * Once a minute (advisory lock, one replica): replaces the servers blocked in their clients'
 * networks (ServerReplacements.replaceDue). Reachability also calls the service right after a
 * state changes; the two cannot replace a server twice (row lock and the unique row).
 */
@Injectable()
export class ServerReplacementJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly every = new PeriodicJob(
    'Server replacement',
    JOB_INTERVAL_MS,
    () => this.runOnce(),
    new Logger('ServerReplacementJob'),
  );

  constructor(
    private readonly replacements: ServerReplacements,
    private readonly transactions: TransactionRunner,
  ) {}

  onApplicationBootstrap(): void {
    this.every.start();
  }

  onApplicationShutdown(): void {
    this.every.stop();
  }

  /** Replaces what is due unless another replica is doing it now (then null); answers how many. */
  runOnce(): Promise<number | null> {
    // The lock's transaction only holds the lock: each subscription is settled in its own.
    return this.transactions.exclusive(REPLACEMENT_LOCK_ID, () => this.replacements.replaceDue());
  }
}
