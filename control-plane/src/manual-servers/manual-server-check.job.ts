import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
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
  private readonly logger = new Logger('ManualServerCheckJob');
  private timer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(
    private readonly manual: ManualServersService,
    private readonly transactions: TransactionRunner,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.runOnce().catch((error: unknown) =>
        this.logger.error({ err: error }, 'Manual server checks failed'),
      );
    }, CHECK_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Runs the checks unless another replica is; returns how many servers passed, or null. */
  async runOnce(): Promise<number | null> {
    this.running = true;
    try {
      return await this.transactions.exclusive(CHECK_LOCK_ID, () => this.manual.checkAll());
    } finally {
      this.running = false;
    }
  }
}
