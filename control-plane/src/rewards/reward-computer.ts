import { Injectable } from '@nestjs/common';
import type { VpsTierId } from '@scn/proto';
import type { RewardStakingStatementEntity } from './entities/reward-staking-statement.entity';
import type {
  RewardStatementEntity,
  RewardStatementStatus,
} from './entities/reward-statement.entity';
import {
  type FactsWindow,
  type OperatorFacts,
  RewardFactsRepository,
} from './reward-facts.repository';
import { monthsSinceGenesis, type PeriodBounds, periodBounds, periodDate } from './reward-period';
import {
  type BudgetScale,
  monthlyBudgetMicro,
  scaleMicro,
  stakingIncomeMicro,
} from './reward-rules';
import {
  composeStatement,
  poolDemandMicro,
  serverState,
  settleStatement,
  type StatementFigures,
  type StatementInput,
} from './reward-statement';

/** A statement as stored (and as a dry run shows it): the entity's fields. */
export type StatementRow = { [K in keyof RewardStatementEntity]: RewardStatementEntity[K] };
export type StakingRow = {
  [K in keyof RewardStakingStatementEntity]: RewardStakingStatementEntity[K];
};

/** One node's statement before the period's scale is known. */
export interface DraftStatement {
  serverId: string;
  ownerUuid: string;
  input: StatementInput;
  autoStakePercent: number;
  figures: StatementFigures;
}

export interface DraftStaking {
  ownerUuid: string;
  stakeAtStartMicro: bigint;
  stakeAtEndMicro: bigint;
  incomeMicro: bigint;
}

/** Every statement of a period (or of one operator), before scaling. */
export interface Draft {
  bounds: PeriodBounds;
  until: Date;
  statements: DraftStatement[];
  staking: DraftStaking[];
  /** What the drafted statements and staking incomes ask of the pool. */
  demandMicro: bigint;
}

export interface PoolFigures {
  poolMicro: bigint;
  monthIndex: number;
  budgetMicro: bigint;
}

const NO_OPERATOR_FACTS: OperatorFacts = {
  autoStakePercent: 0,
  stakeAtStartMicro: 0n,
  stakeAtEndMicro: 0n,
  requiredBeforeMicro: 0n,
};

/**
 * Computes a period's statements from the stored facts: reads each kind of fact
 * with one query for the whole network (reward-facts.repository), applies the pure rules
 * (reward-statement.ts) in memory, and states the pool's budget and scale. The monthly job and
 * the dry run of the earnings endpoint both compute here.
 */
@Injectable()
export class RewardComputer {
  constructor(private readonly facts: RewardFactsRepository) {}

  /** The statements of `period` from the facts up to `until` (the period's end, or now). */
  async draft(period: string, until: Date, owner: string | null = null): Promise<Draft> {
    const bounds = periodBounds(period);
    const end = until < bounds.end ? until : bounds.end;
    const window: FactsWindow = {
      startDay: periodDate(period),
      endDay: bounds.end.toISOString().slice(0, 10),
      start: bounds.start,
      until: end,
    };
    const servers = await this.facts.serverFacts(window, owner);
    const operators = await this.facts.operatorFacts(window, window.startDay, owner);
    const subscriptions = await this.facts.subscriptionLines(window, owner);
    const adBonuses = await this.facts.adBonusLines(window, owner);
    // An operator's share rewards are one figure per month: the line of their first server
    // (by id) carries it, so the operator's statements sum to it exactly once.
    const adBonusServer = new Map<string, string>();
    for (const row of servers) {
      const first = adBonusServer.get(row.ownerUuid);
      if (first === undefined || row.serverId < first)
        adBonusServer.set(row.ownerUuid, row.serverId);
    }
    const statements = servers.map((row): DraftStatement => {
      const operator = operators.get(row.ownerUuid) ?? NO_OPERATOR_FACTS;
      const subscription = subscriptions.get(row.serverId);
      // A deleted server's age is unknown: it counts from the period (no halving cut).
      const enrolledAt = row.server?.createdAt ?? bounds.start;
      const input: StatementInput = {
        tier: row.tier as VpsTierId | null,
        facts: {
          observedSeconds: row.observedSeconds,
          reliabilitySeconds: row.reliabilitySeconds,
          belowSeconds: row.belowSeconds,
        },
        period: bounds,
        state: serverState(row.server),
        enrolledAt,
        hardwareSince: row.server?.hardwareSince ?? enrolledAt,
        stakeMicro: operator.stakeAtEndMicro,
        requiredBeforeMicro: operator.requiredBeforeMicro,
        subscriptionClients: subscription?.clients ?? 0,
        subscriptionMicro: subscription?.micro ?? 0n,
        // The operator's share rewards of the period (paid when each share was).
        adBonusMicro:
          adBonusServer.get(row.ownerUuid) === row.serverId
            ? (adBonuses.get(row.ownerUuid) ?? 0n)
            : 0n,
      };
      return {
        serverId: row.serverId,
        ownerUuid: row.ownerUuid,
        input,
        autoStakePercent: operator.autoStakePercent,
        figures: composeStatement(input),
      };
    });
    const staking: DraftStaking[] = [];
    for (const [ownerUuid, operator] of operators) {
      if (operator.stakeAtStartMicro <= 0n && operator.stakeAtEndMicro <= 0n) continue;
      staking.push({
        ownerUuid,
        stakeAtStartMicro: operator.stakeAtStartMicro,
        stakeAtEndMicro: operator.stakeAtEndMicro,
        incomeMicro: stakingIncomeMicro(operator.stakeAtStartMicro, operator.stakeAtEndMicro),
      });
    }
    const demandMicro = poolDemandMicro(
      statements.map((s) => s.figures),
      staking.map((s) => s.incomeMicro),
    );
    return { bounds, until: end, statements, staking, demandMicro };
  }

  /** The pool now and the budget it gives `period` (docs/product/constants.md#billing-and-the-economy: the 12-month cycle). */
  async pool(period: string): Promise<PoolFigures> {
    const poolMicro = await this.facts.poolBalanceMicro();
    const genesis = await this.facts.genesisAt();
    const monthIndex = monthsSinceGenesis(genesis, period);
    return { poolMicro, monthIndex, budgetMicro: monthlyBudgetMicro(poolMicro, monthIndex) };
  }
}

/** A drafted statement with the period's scale and the operator's auto-stake applied. */
export function statementRow(
  draft: Draft,
  statement: DraftStatement,
  scale: BudgetScale,
  computedAt: Date,
): StatementRow {
  const { input, figures } = statement;
  const payout = settleStatement(figures, scale, statement.autoStakePercent);
  const status: RewardStatementStatus = figures.withheld === 'banned' ? 'withheld' : 'computed';
  return {
    serverId: statement.serverId,
    period: periodDate(draft.bounds.period),
    ownerUuid: statement.ownerUuid,
    tier: input.tier,
    serverState: input.state,
    periodSeconds: draft.bounds.seconds,
    observedSeconds: input.facts.observedSeconds,
    reliabilitySeconds: input.facts.reliabilitySeconds.toString(),
    belowSeconds: input.facts.belowSeconds,
    enrolledAt: input.enrolledAt,
    hardwareSince: input.hardwareSince,
    nodeYear: figures.nodeYear,
    stakeMicro: input.stakeMicro.toString(),
    requiredBeforeMicro: input.requiredBeforeMicro.toString(),
    halvingCut: figures.halvingCut,
    requiredStakeMicro: figures.requiredStakeMicro.toString(),
    tierBaseMicro: figures.tierBaseMicro.toString(),
    proRataMicro: figures.proRataMicro.toString(),
    reliabilityBasisPoints: figures.reliabilityBasisPoints,
    slashBasisPoints: figures.slashBasisPoints,
    earnedMicro: figures.earnedMicro.toString(),
    frozenMicro: figures.frozenMicro.toString(),
    payableMicro: figures.payableMicro.toString(),
    subscriptionClients: input.subscriptionClients,
    subscriptionMicro: input.subscriptionMicro.toString(),
    adBonusMicro: input.adBonusMicro.toString(),
    incomeMicro: figures.incomeMicro.toString(),
    withheld: figures.withheld,
    poolWalletMicro: figures.poolWalletMicro.toString(),
    poolEscrowMicro: figures.poolEscrowMicro.toString(),
    scaleNumeratorMicro: scale.numeratorMicro.toString(),
    scaleDenominatorMicro: scale.denominatorMicro.toString(),
    paidPayableMicro: payout.paidPayableMicro.toString(),
    escrowedMicro: payout.escrowedMicro.toString(),
    autoStakePercent: payout.autoStakePercent,
    autoStakedMicro: payout.autoStakedMicro.toString(),
    walletMicro: payout.walletMicro.toString(),
    status,
    computedAt,
    paidAt: null,
    ledgerTransactionId: null,
  };
}

export function stakingRow(
  draft: Draft,
  staking: DraftStaking,
  scale: BudgetScale,
  computedAt: Date,
): StakingRow {
  return {
    ownerUuid: staking.ownerUuid,
    period: periodDate(draft.bounds.period),
    stakeAtStartMicro: staking.stakeAtStartMicro.toString(),
    stakeAtEndMicro: staking.stakeAtEndMicro.toString(),
    incomeMicro: staking.incomeMicro.toString(),
    scaleNumeratorMicro: scale.numeratorMicro.toString(),
    scaleDenominatorMicro: scale.denominatorMicro.toString(),
    paidMicro: scaleMicro(staking.incomeMicro, scale).toString(),
    status: 'computed',
    computedAt,
    paidAt: null,
    ledgerTransactionId: null,
  };
}
