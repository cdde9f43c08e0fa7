import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { CLOCK, type Clock } from '../common/clock';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { RealtimeGateway } from '../realtime/realtime.gateway';
import { currentReliability, RELIABILITY } from '../reliability/reliability';
import { type DecayUpdate, MarketRepository } from './market.repository';

const DECAY_CHUNK = 2000;

export interface MarketRefreshResult {
  decayed: number;
  promotions: number;
  premium: number;
  expiredMarks: number;
}

/**
 * What the market keeps that depends on the clock, brought up to `now`: run by the minute
 * reliability sweep (under its advisory lock), idempotent for its minute.
 * - Staleness decay (docs/product/states.md#subscription-and-reliability-states): a server without reports loses reliability by the hour and
 *   goes stale after an hour; reports set it fresh themselves (market migration triggers).
 * - Promotions whose time ran out stop being promoted.
 * - Connect-cooldown marks that ran out are deleted.
 * At start it writes the configured platform operator e-mail and re-derives premium flags.
 */
@Injectable()
export class MarketRefresh implements OnApplicationBootstrap {
  private readonly logger = new Logger('MarketRefresh');

  constructor(
    private readonly repository: MarketRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly realtime: RealtimeGateway,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const premium = await this.syncPlatformOperator();
    if (premium > 0) this.logger.log({ premium }, 'Premium server flags updated');
  }

  /** Writes PLATFORM_OPERATOR_EMAIL for the triggers and re-derives every premium flag. */
  async syncPlatformOperator(): Promise<number> {
    await this.repository.setPlatformOperatorEmail(this.config.platformOperatorEmail ?? null);
    return this.repository.reconcilePremium();
  }

  async refresh(): Promise<MarketRefreshResult> {
    const now = this.clock.now();
    const decayed = await this.decay(now);
    const promotions = await this.repository.settlePromotions(now);
    const expiredMarks = await this.repository.deleteExpiredProcessing(now);
    if (decayed > 0 || promotions > 0) this.realtime.serverListUpdated('availability');
    return { decayed, promotions, premium: 0, expiredMarks };
  }

  private async decay(now: Date): Promise<number> {
    const staleBefore = new Date(now.getTime() - RELIABILITY.staleAfterMs);
    const updates: DecayUpdate[] = [];
    for (const candidate of await this.repository.decayCandidates(staleBefore)) {
      const reliability = currentReliability(
        {
          reliabilityAtReport: candidate.reliability_at_report,
          lastReportAt: candidate.last_report_at,
          lastCreditedAt: null,
          belowThresholdSince: null,
          bannedAt: null,
        },
        now,
      );
      // Candidates are read with no report for over an hour: stale (docs/product/states.md#subscription-and-reliability-states).
      if (reliability !== candidate.reliability || !candidate.stale) {
        updates.push({
          serverId: candidate.server_id,
          lastReportAt: candidate.last_report_text,
          reliability,
          stale: true,
        });
      }
    }
    let applied = 0;
    // Bounded statements, so a mass outage does not become one huge lock set.
    for (let i = 0; i < updates.length; i += DECAY_CHUNK) {
      applied += await this.repository.applyDecay(updates.slice(i, i + DECAY_CHUNK));
    }
    return applied;
  }

  /** Sets the market order's reachability penalties (the reachability domain computes them). */
  setReachPenalties(penalties: ReadonlyMap<string, number>): Promise<number> {
    return this.repository.setReachPenalties(penalties);
  }
}
