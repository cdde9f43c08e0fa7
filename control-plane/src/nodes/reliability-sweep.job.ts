import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { runExclusive } from '../common/exclusive';
import { MarketRefresh } from '../market/market-refresh';
import { NodesService } from './nodes.service';
import { isDatabaseUnavailable } from '../common/database-unavailable';

const SWEEP_INTERVAL_MS = 60_000;
/** Shared by every replica: whoever holds it this minute runs the sweep. */
const SWEEP_LOCK_ID = 4_202_612;

/**
 * Once a minute (spec 02 §4): moves silent nodes through the 95%/14-day lifecycle, then brings the
 * market's clock-dependent columns (staleness decay, promotions) up to now. Idempotent, and a
 * transaction-scoped advisory lock keeps two replicas from running it at once.
 */
@Injectable()
export class ReliabilitySweepJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ReliabilitySweepJob');
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly nodes: NodesService,
    private readonly market: MarketRefresh,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.runOnce().catch((error: unknown) =>
        // A database outage is not a bug: a warning, and the next run catches up.
        isDatabaseUnavailable(error)
          ? this.logger.warn(
              { err: { message: (error as Error).message } },
              'Reliability sweep failed: database unavailable',
            )
          : this.logger.error({ err: error }, 'Reliability sweep failed'),
      );
    }, SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Runs the sweep unless another replica is running it; returns the servers it changed, or null. */
  runOnce(): Promise<number | null> {
    return runExclusive(this.dataSource, SWEEP_LOCK_ID, async () => {
      const changed = await this.nodes.sweepReliability();
      await this.market.refresh();
      return changed;
    });
  }
}
