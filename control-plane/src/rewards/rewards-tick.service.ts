import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '../common/clock';
import { type EscrowOutcome, RewardEscrowService } from './reward-escrow.service';
import { lastEndedPeriod, periodBounds } from './reward-period';
import { RewardRunService, type RunOptions, type RunOutcome } from './reward-run.service';

/**
 * A period is paid an hour after it ends: the reliability sweep writes the history every minute,
 * so by then the period's last day is complete.
 */
export const RUN_DELAY_MS = 3_600_000;

export interface RewardsTick {
  runs: RunOutcome[];
  escrow: EscrowOutcome;
  bansMailed: number;
}

/**
 * The rewards job's tick: finishes any monthly run that stopped half way, pays
 * the last ended month once it is an hour old (once: later ticks find it paid), releases or
 * forfeits escrows, and mails new bans. The caller holds the job's lock; each batch commits on
 * its own.
 */
@Injectable()
export class RewardsTickService {
  constructor(
    private readonly runs: RewardRunService,
    private readonly escrow: RewardEscrowService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async tick(options: RunOptions = {}): Promise<RewardsTick> {
    const runs: RunOutcome[] = [];
    for (const period of await this.runs.unfinishedPeriods()) {
      runs.push(await this.runs.runPeriod(period, options));
    }
    const now = this.clock.now();
    const period = lastEndedPeriod(now);
    const due = now.getTime() >= periodBounds(period).end.getTime() + RUN_DELAY_MS;
    if (due && !runs.some((run) => run.period === period)) {
      runs.push(await this.runs.runPeriod(period, options));
    }
    const escrow = await this.escrow.settle();
    const bansMailed = await this.escrow.notifyBans();
    return { runs, escrow, bansMailed };
  }
}
