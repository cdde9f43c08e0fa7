import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { PeriodicJob } from '../common/periodic-job';
import { TransactionRunner } from '../database/transaction-runner';
import { ManualServersService } from './manual-servers.service';

const CHECK_INTERVAL_MS = 60_000;
/** Shared by every replica: whoever holds it runs this minute's checks. */
const CHECK_LOCK_ID = 4_202_615;

/**
 * Once a minute (spec 02 §4): the VLESS check of every server added without the agent
 * (ManualServersService.checkAll). Its own job, apart from the reliability sweep, because it
 * waits on the network (up to 10 s per server, 16 at a time): the sweep and the market's decay
 * must not wait for it. A run still going when the next minute comes is not doubled: this
 * replica skips the tick, and the advisory lock keeps other replicas out.
 */
@Injectable()
export class ManualServerCheckJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly every = new PeriodicJob(
    'Manual server checks',
    CHECK_INTERVAL_MS,
    () => this.runOnce(),
    new Logger('ManualServerCheckJob'),
  );

  constructor(
    private readonly manual: ManualServersService,
    private readonly transactions: TransactionRunner,
  ) {}

  onApplicationBootstrap(): void {
    this.every.start();
  }

  onApplicationShutdown(): void {
    this.every.stop();
  }

  /** Runs the checks unless another replica is; returns how many servers passed, or null. */
  runOnce(): Promise<number | null> {
    return this.transactions.exclusive(CHECK_LOCK_ID, () => this.manual.checkAll());
  }
}
