import { Inject, Injectable } from '@nestjs/common';
import { ECONOMICS, type LiveEconomy, REWARD_POOL_GENESIS_MICRO } from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import { monthlyBudgetMicro } from '../rewards/reward-rules';
import { EconomicsRepository } from './economics.repository';

/** How long one replica answers the same live figures (they move once a minute at most). */
export const LIVE_ECONOMY_TTL_MS = 30_000;

/** The first instant of the UTC month `offset` months from `date`'s. */
export function monthStart(date: Date, offset = 0): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1));
}

/** Whole UTC months from `from`'s month to `to`'s (0 in the same month). */
export function monthsBetween(from: Date, to: Date): number {
  return (
    (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + (to.getUTCMonth() - from.getUTCMonth())
  );
}

/**
 * The live economy for /economics (issue 18 §6): the pool, this month's budget by the reward
 * cycle's rule (reward-rules monthlyBudgetMicro), what the pool paid and received, the servers'
 * reliability and the stakes. Cached per replica for LIVE_ECONOMY_TTL_MS; concurrent callers
 * share one read.
 */
@Injectable()
export class EconomicsService {
  private cached: { at: number; value: Promise<LiveEconomy> } | null = null;

  constructor(
    private readonly repository: EconomicsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  live(): Promise<LiveEconomy> {
    const now = this.clock.now();
    if (this.cached && Math.abs(now.getTime() - this.cached.at) < LIVE_ECONOMY_TTL_MS)
      return this.cached.value;
    const value = this.compute(now);
    this.cached = { at: now.getTime(), value };
    // A failed read is not kept: the next caller tries again.
    value.catch(() => {
      if (this.cached?.value === value) this.cached = null;
    });
    return value;
  }

  private async compute(now: Date): Promise<LiveEconomy> {
    const thisMonth = monthStart(now);
    const facts = await this.repository.facts(now, monthStart(now, -1), thisMonth);
    const monthIndex = Math.max(0, monthsBetween(facts.genesisAt ?? now, now));
    return {
      poolMicro: facts.poolMicro.toString(),
      poolGenesisMicro: REWARD_POOL_GENESIS_MICRO.toString(),
      month: thisMonth.toISOString().slice(0, 7),
      cycleMonth: (monthIndex % ECONOMICS.rewardCycleMonths) + 1,
      monthBudgetMicro: monthlyBudgetMicro(facts.poolMicro, monthIndex).toString(),
      lastMonthPaidMicro: facts.lastMonthPaidMicro.toString(),
      totalPaidMicro: facts.totalPaidMicro.toString(),
      totalInflowMicro: facts.totalInflowMicro.toString(),
      servers: facts.servers,
      reportingServers: facts.reportingServers,
      hiddenServers: facts.hiddenServers,
      networkReliability:
        facts.reportingServers === 0
          ? null
          : Math.round((facts.reportingReliabilitySum * 10) / facts.reportingServers) / 10,
      totalStakeMicro: facts.totalStakeMicro.toString(),
      stakers: facts.stakers,
      computedAt: now.toISOString(),
    };
  }
}
