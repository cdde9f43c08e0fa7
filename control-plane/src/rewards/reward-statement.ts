import type { VpsTierId } from '@scn/proto';
import type { PeriodBounds } from './reward-period';
import {
  autoStakeMicro,
  type BaseReward,
  baseReward,
  type BudgetScale,
  halvingCutApplies,
  nodeYear,
  type ReliabilityFacts,
  requiredStakeMicro,
  scaleMicro,
} from './reward-rules';

/**
 * One node's statement for one period, as pure functions: `composeStatement`
 * applies every rule to the period's facts, `settleStatement` the period's budget scale and the
 * operator's automatic stake. The job and the dry run both go through these.
 */

/** What the server was when the period was paid. */
export type ServerState = 'active' | 'hidden' | 'banned' | 'deleted';

/**
 * Why part of a statement is not paid to the wallet now:
 * - `hidden`: below 95% when paid, so the whole reward goes to its escrow, released on recovery;
 * - `banned`: rewards of a banned server are never paid (it stays in the pool);
 * - `deleted`: the server is gone, so its frozen part can never be released (it stays in the pool).
 */
export type Withheld = 'hidden' | 'banned' | 'deleted';

export interface StatementInput {
  tier: VpsTierId | null;
  facts: ReliabilityFacts;
  period: PeriodBounds;
  state: ServerState;
  /** When the server enrolled (its year of operation counts from here). */
  enrolledAt: Date;
  /** When its hardware was last upgraded, or first reported. */
  hardwareSince: Date;
  /** The operator's stake at the end of the period. */
  stakeMicro: bigint;
  /** What halving protection asked the operator to stake over earlier periods (cumulative). */
  requiredBeforeMicro: bigint;
  /** Subscription rewards of the period attributed to this server (paid when bought). */
  subscriptionClients: number;
  subscriptionMicro: bigint;
  /** Share-and-earn rewards of the period (0 until they exist). */
  adBonusMicro: bigint;
}

export interface StatementFigures extends BaseReward {
  nodeYear: number;
  /** Node income = earned base + subscription rewards + ad bonus (docs/product/constants.md#billing-and-the-economy). */
  incomeMicro: bigint;
  /** What this period adds to the halving requirement: income x the year's share. */
  requiredStakeMicro: bigint;
  withheld: Withheld | null;
  /** Owed from the pool to the operator's wallet (before the budget scale). */
  poolWalletMicro: bigint;
  /** Owed from the pool to the server's escrow (before the budget scale). */
  poolEscrowMicro: bigint;
}

export function composeStatement(input: StatementInput): StatementFigures {
  const at = input.period.end;
  // docs/product/states.md#subscription-and-reliability-states, docs/product/constants.md#billing-and-the-economy: the cut looks at the requirement of earlier periods, never this one's.
  const halvingCut = halvingCutApplies({
    enrolledAt: input.enrolledAt,
    hardwareSince: input.hardwareSince,
    at,
    stakeMicro: input.stakeMicro,
    requiredStakeMicro: input.requiredBeforeMicro,
  });
  const base = baseReward(input.tier, input.facts, input.period.seconds, halvingCut);
  const year = nodeYear(input.enrolledAt, at);
  const incomeMicro = base.earnedMicro + input.subscriptionMicro + input.adBonusMicro;
  const owed = owedFromPool(base, input.state);
  return {
    ...base,
    nodeYear: year,
    incomeMicro,
    requiredStakeMicro: requiredStakeMicro(incomeMicro, year),
    ...owed,
  };
}

function owedFromPool(
  base: BaseReward,
  state: ServerState,
): Pick<StatementFigures, 'withheld' | 'poolWalletMicro' | 'poolEscrowMicro'> {
  switch (state) {
    case 'active':
      return {
        withheld: null,
        poolWalletMicro: base.payableMicro,
        poolEscrowMicro: base.frozenMicro,
      };
    case 'hidden':
      return {
        withheld: 'hidden',
        poolWalletMicro: 0n,
        poolEscrowMicro: base.payableMicro + base.frozenMicro,
      };
    case 'banned':
      return { withheld: 'banned', poolWalletMicro: 0n, poolEscrowMicro: 0n };
    case 'deleted':
      return {
        withheld: base.frozenMicro > 0n ? 'deleted' : null,
        poolWalletMicro: base.payableMicro,
        poolEscrowMicro: 0n,
      };
  }
}

/** The payout of a statement once the period's scale is known. */
export interface StatementPayout {
  /** poolWallet after the scale: what leaves the pool for the operator now. */
  paidPayableMicro: bigint;
  /** poolEscrow after the scale: what leaves the pool for the server's escrow. */
  escrowedMicro: bigint;
  autoStakePercent: number;
  /** Of paidPayable, what goes to the operator's stake (auto-stake). */
  autoStakedMicro: bigint;
  /** Of paidPayable, what goes to the node wallet (frozen 60 days). */
  walletMicro: bigint;
}

export function settleStatement(
  figures: Pick<StatementFigures, 'poolWalletMicro' | 'poolEscrowMicro'>,
  scale: BudgetScale,
  autoStakePercent: number,
): StatementPayout {
  const paidPayableMicro = scaleMicro(figures.poolWalletMicro, scale);
  const autoStakedMicro = autoStakeMicro(paidPayableMicro, autoStakePercent);
  return {
    paidPayableMicro,
    escrowedMicro: scaleMicro(figures.poolEscrowMicro, scale),
    autoStakePercent,
    autoStakedMicro,
    walletMicro: paidPayableMicro - autoStakedMicro,
  };
}

/** What the period's statements and staking incomes ask of the pool, before scaling. */
export function poolDemandMicro(
  statements: readonly Pick<StatementFigures, 'poolWalletMicro' | 'poolEscrowMicro'>[],
  stakingIncomesMicro: readonly bigint[],
): bigint {
  let total = 0n;
  for (const s of statements) total += s.poolWalletMicro + s.poolEscrowMicro;
  for (const income of stakingIncomesMicro) total += income;
  return total;
}

/** The server's state for the statement, from its row (null: deleted). */
export function serverState(
  row: { bannedAt: Date | null; belowThresholdSince: Date | null } | null,
): ServerState {
  if (!row) return 'deleted';
  if (row.bannedAt) return 'banned';
  return row.belowThresholdSince ? 'hidden' : 'active';
}
