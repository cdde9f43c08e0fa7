import { Inject, Injectable } from '@nestjs/common';
import { type Earnings, REWARDS_MESSAGES, type ServerStatement } from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import type { RewardRunEntity } from './entities/reward-run.entity';
import { pendingServerView, poolView, serverStatementView, stakingView } from './earnings-view';
import {
  RewardComputer,
  type StakingRow,
  type StatementRow,
  stakingRow,
  statementRow,
} from './reward-computer';
import { lastEndedPeriod, periodBounds, periodDate, periodOf } from './reward-period';
import { budgetScale } from './reward-rules';
import { type OwnedServer, RewardStatementsRepository } from './reward-statements.repository';
import { RewardsException } from './rewards.exception';

/** How long a replica reuses the network's demand for dry runs (a full computation). */
const DEMAND_TTL_MS = 10 * 60_000;

/**
 * `GET /api/nodes/{uuid}/earnings`: an ended month answers its stored statements;
 * the current month (or an ended one the job has not paid yet) a dry run, computed now the same
 * way, clearly marked. The dry run's scale needs what the whole network asks of the pool: that
 * is computed at most once per 10 minutes per replica and period, in the background.
 */
@Injectable()
export class EarningsService {
  private readonly demand = new Map<
    string,
    { at: number; micro: Promise<bigint>; refreshing: boolean }
  >();

  constructor(
    private readonly computer: RewardComputer,
    private readonly repository: RewardStatementsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async earnings(ownerUuid: string, period: string | undefined): Promise<Earnings> {
    const now = this.clock.now();
    const current = periodOf(now);
    const wanted = period ?? current;
    // YYYY-MM names sort as the months do.
    if (wanted > current) throw new RewardsException('period_in_future');
    const run = wanted < current ? await this.repository.run(periodDate(wanted)) : null;
    if (run) return this.stored(ownerUuid, wanted, run);
    return this.dryRun(ownerUuid, wanted, now);
  }

  private async stored(ownerUuid: string, period: string, run: RewardRunEntity): Promise<Earnings> {
    const day = periodDate(period);
    const statements = await this.repository.statementsOf(ownerUuid, day);
    const staking = await this.repository.stakingOf(ownerUuid, day);
    return this.answer(ownerUuid, {
      period,
      kind: 'statement',
      asOf: periodBounds(period).end,
      note: null,
      pool: poolView({
        poolMicro: BigInt(run.poolMicro),
        monthIndex: run.monthIndex,
        budgetMicro: BigInt(run.budgetMicro),
        demandMicro: BigInt(run.demandMicro),
        scaleNumeratorMicro: BigInt(run.scaleNumeratorMicro),
        scaleDenominatorMicro: BigInt(run.scaleDenominatorMicro),
      }),
      statements,
      pending: [],
      staking,
    });
  }

  private async dryRun(ownerUuid: string, period: string, now: Date): Promise<Earnings> {
    const draft = await this.computer.draft(period, now, ownerUuid);
    const pool = await this.computer.pool(period);
    const demandMicro = await this.networkDemand(period, now);
    const scale = budgetScale(demandMicro, pool.budgetMicro);
    const mine = draft.staking.find((s) => s.ownerUuid === ownerUuid);
    const statements = draft.statements.map((s) => statementRow(draft, s, scale, now));
    // A server enrolled this month whose first facts the sweep has not written yet has no
    // statement: listed anyway, from the moment it is enrolled (docs/api.md, "Monthly statements").
    const pending =
      period === periodOf(now)
        ? (await this.repository.ownedServers(ownerUuid)).filter(
            (server) => !statements.some((s) => s.serverId === server.id),
          )
        : [];
    return this.answer(ownerUuid, {
      period,
      kind: 'dry_run',
      asOf: draft.until,
      note:
        period === periodOf(now)
          ? REWARDS_MESSAGES.dryRun
          : period === lastEndedPeriod(now)
            ? REWARDS_MESSAGES.pending
            : REWARDS_MESSAGES.notRun,
      pool: poolView({
        ...pool,
        demandMicro,
        scaleNumeratorMicro: scale.numeratorMicro,
        scaleDenominatorMicro: scale.denominatorMicro,
      }),
      statements,
      pending,
      staking: mine ? stakingRow(draft, mine, scale, now) : null,
    });
  }

  private async answer(
    ownerUuid: string,
    parts: {
      period: string;
      kind: Earnings['kind'];
      asOf: Date;
      note: string | null;
      pool: Earnings['pool'];
      statements: readonly StatementRow[];
      /** The operator's servers without facts yet in a dry run of the current month. */
      pending: readonly OwnedServer[];
      staking: StakingRow | null;
    },
  ): Promise<Earnings> {
    const dryRun = parts.kind === 'dry_run';
    const names = await this.repository.serverNames(
      ownerUuid,
      parts.statements.map((s) => s.serverId),
    );
    const servers: ServerStatement[] = [
      ...parts.statements.map((s) => serverStatementView(s, names.get(s.serverId) ?? null, dryRun)),
      ...parts.pending.map(pendingServerView),
    ];
    const sum = (pick: (s: StatementRow) => string) =>
      parts.statements.reduce((total, s) => total + BigInt(pick(s)), 0n).toString();
    return {
      period: parts.period,
      kind: parts.kind,
      asOf: parts.asOf.toISOString(),
      note: parts.note,
      pool: parts.pool,
      servers,
      staking: parts.staking ? stakingView(parts.staking, dryRun) : null,
      totals: {
        incomeMicro: sum((s) => s.incomeMicro),
        walletMicro: sum((s) => s.walletMicro),
        autoStakedMicro: sum((s) => s.autoStakedMicro),
        escrowedMicro: sum((s) => s.escrowedMicro),
        stakingMicro: parts.staking?.paidMicro ?? '0',
      },
    };
  }

  /**
   * What the whole network asks of the pool for `period` so far, per replica: computed once,
   * then recomputed in the background when 10 minutes old while the last figure is answered (only
   * the first request of a period waits for the computation).
   */
  private networkDemand(period: string, now: Date): Promise<bigint> {
    const at = now.getTime();
    const entry = this.demand.get(period);
    if (entry && (entry.refreshing || (at >= entry.at && at - entry.at < DEMAND_TTL_MS))) {
      return entry.micro;
    }
    const micro = this.computer.draft(period, now).then((draft) => draft.demandMicro);
    if (entry) {
      entry.refreshing = true;
      micro.then(
        () => this.demand.set(period, { at, micro, refreshing: false }),
        () => (entry.refreshing = false),
      );
      return entry.micro;
    }
    // A few periods at most (the current one, the last ended): the oldest entry goes first.
    if (this.demand.size >= 4) this.demand.delete(this.demand.keys().next().value!);
    this.demand.set(period, { at, micro, refreshing: false });
    micro.catch(() => this.demand.delete(period));
    return micro;
  }
}
