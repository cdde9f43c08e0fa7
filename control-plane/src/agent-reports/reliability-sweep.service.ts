import { Inject, Injectable } from '@nestjs/common';
import { TrafficRepository } from '../traffic/traffic.repository';
import { CLOCK, type Clock } from '../common/clock';
import { MarketRefresh } from '../market/market-refresh';
import { RealtimeGateway } from '../realtime/realtime.gateway';
import { settleThreshold } from '../reliability/reliability';
import { ReliabilityHistoryService } from '../reliability-history/reliability-history.service';
import {
  ReliabilitySweepRepository,
  type SweepSettlement,
} from '../nodes/reliability-sweep.repository';

/** Servers the reliability sweep reads, and writes in one statement, at a time (as HISTORY_PAGE_SIZE). */
export const SWEEP_PAGE_SIZE = 1_000;

/**
 * The minute's reliability work (docs/product/states.md#subscription-and-reliability-states): writes every server's reliability history up to
 * now (and prunes it once a day), moves silent nodes through the 95%/14-day
 * lifecycle, then brings the market's clock-dependent columns (staleness decay, promotions) up
 * to now. The reliability sweep job (reliability-sweep.job.ts) runs it under its advisory lock.
 */
@Injectable()
export class ReliabilitySweepService {
  constructor(
    private readonly repository: ReliabilitySweepRepository,
    private readonly market: MarketRefresh,
    private readonly realtime: RealtimeGateway,
    private readonly history: ReliabilityHistoryService,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly traffic: TrafficRepository,
  ) {}

  /** One minute's work; returns the servers whose lifecycle it changed. */
  async run(): Promise<number> {
    // Before the lifecycle: it reads the states as the reports left them (a ban stops it).
    const now = this.clock.now();
    await this.history.writeUntil(now);
    await this.history.prune(now);
    await this.traffic.prune(now);
    const changed = await this.sweep();
    await this.market.refresh();
    return changed;
  }

  /**
   * Moves the 95%/14-day lifecycle on for every server it could move for (idempotent per run):
   * reads the candidates a page at a time and writes each page's changes in one statement, so
   * memory and round trips stay bounded at any network size. Returns how many servers changed.
   */
  async sweep(pageSize = SWEEP_PAGE_SIZE): Promise<number> {
    const now = this.clock.now();
    let changed = 0;
    let afterId: string | null = null;
    for (;;) {
      const page = await this.repository.listServersForSweep(now, afterId, pageSize);
      const settlements: SweepSettlement[] = [];
      for (const before of page) {
        const after = settleThreshold(before, now);
        if (after !== before) {
          settlements.push({
            id: before.id,
            version: before.version,
            belowThresholdSince: after.belowThresholdSince,
            bannedAt: after.bannedAt,
          });
        }
      }
      changed += await this.repository.settleServers(settlements);
      const last = page[page.length - 1];
      if (!last || page.length < pageSize) break;
      afterId = last.id;
    }
    if (changed > 0) this.realtime.serverListUpdated('availability');
    return changed;
  }
}
