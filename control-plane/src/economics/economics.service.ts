import { Inject, Injectable } from '@nestjs/common';
import { type LiveEconomy, REWARD_POOL_GENESIS_MICRO } from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import { addPeriods, monthsSinceGenesis, periodOf } from '../rewards/reward-period';
import { cycleMonth, monthlyBudgetMicro } from '../rewards/reward-rules';
import { EconomicsRepository } from './economics.repository';

/** How long one replica answers the same live figures (they move once a minute at most). */
export const LIVE_ECONOMY_TTL_MS = 30_000;

/**
 * The live economy for /economics: the pool, this month's budget by the rewards
 * engine's own rule and month index (monthsSinceGenesis, monthlyBudgetMicro: what the monthly
 * run and the dry run give the month), what the pool paid for the last month and since genesis
 * and what it received, the servers' reliability and the stakes. Cached per replica for LIVE_ECONOMY_TTL_MS; concurrent callers
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
    const month = periodOf(now);
    const facts = await this.repository.facts(now, addPeriods(month, -1));
    const monthIndex = monthsSinceGenesis(facts.genesisAt, month);
    return {
      poolMicro: facts.poolMicro.toString(),
      poolGenesisMicro: REWARD_POOL_GENESIS_MICRO.toString(),
      month,
      cycleMonth: cycleMonth(monthIndex) + 1,
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
