import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { CLOCK, type Clock } from '../common/clock';
import { JOBS } from '../jobs/job-registry';
import { JobScheduler } from '../jobs/job-scheduler';
import type { ScheduledJob } from '../jobs/scheduled-job';
import { TransactionRunner } from '../database/transaction-runner';
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
 * Every 5 minutes (issue 18 §2, §3): finishes any monthly run that stopped half way, pays the
 * last ended month once it is an hour old (once: later ticks find it paid), releases or forfeits
 * escrows, and mails new bans. Once per 5 minutes across the replicas (jobs/job-scheduler.ts),
 * one run at a time (a session advisory lock held for the run; each batch commits on its own).
 */
@Injectable()
export class RewardsJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private job: ScheduledJob | null = null;

  constructor(
    private readonly runs: RewardRunService,
    private readonly escrow: RewardEscrowService,
    private readonly transactions: TransactionRunner,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly scheduler: JobScheduler,
  ) {}

  onApplicationBootstrap(): void {
    this.job = this.scheduler.start(JOBS.rewards, () => this.runOnce());
  }

  onApplicationShutdown(): void {
    this.job?.stop();
  }

  /** One tick unless another replica is running one (then null). */
  runOnce(options: RunOptions = {}): Promise<RewardsTick | null> {
    return this.transactions.whileHolding(JOBS.rewards.lockId, () => this.tick(options));
  }

  private async tick(options: RunOptions): Promise<RewardsTick> {
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
