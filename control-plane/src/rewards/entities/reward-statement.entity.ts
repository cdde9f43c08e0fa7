import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { ServerState, Withheld } from '../reward-statement';

export type RewardStatementStatus = 'computed' | 'paid' | 'withheld';

/**
 * One node's monthly reward statement: every input of the formula and every
 * result, in integer micro-SSL, so a payout can be explained line by line. Written `computed`
 * with the whole period in one transaction; each is then paid in the same transaction as its
 * ledger movement (`reward:<serverId>:<YYYY-MM>`). A banned server's statement is `withheld`
 * from the start: it pays nothing. No foreign key to servers: a deleted server keeps its
 * statements, as it keeps its reliability history.
 */
@Entity({ name: 'reward_statements' })
@Index('ix_reward_statements_owner', ['ownerUuid', 'period'])
@Index('ix_reward_statements_unpaid', ['period', 'serverId'], { where: `"status" = 'computed'` })
@Check('ck_reward_statements_status', `"status" IN ('computed', 'paid', 'withheld')`)
@Check('ck_reward_statements_state', `"server_state" IN ('active', 'hidden', 'banned', 'deleted')`)
@Check(
  'ck_reward_statements_withheld',
  `"withheld" IS NULL OR "withheld" IN ('hidden', 'banned', 'deleted')`,
)
export class RewardStatementEntity {
  @PrimaryColumn({ name: 'server_id', type: 'uuid' })
  serverId: string;

  /** The period's first day (UTC month). */
  @PrimaryColumn({ type: 'date' })
  period: string;

  @Column({ name: 'owner_uuid', type: 'uuid' })
  ownerUuid: string;

  @Column({ type: 'varchar', length: 8, nullable: true })
  tier: string | null;

  @Column({ name: 'server_state', type: 'varchar', length: 8 })
  serverState: ServerState;

  // The facts: the reliability history summed over the period.
  @Column({ name: 'period_seconds', type: 'int' })
  periodSeconds: number;

  @Column({ name: 'observed_seconds', type: 'int' })
  observedSeconds: number;

  @Column({ name: 'reliability_seconds', type: 'bigint' })
  reliabilitySeconds: string;

  @Column({ name: 'below_seconds', type: 'int' })
  belowSeconds: number;

  // Halving protection.
  @Column({ name: 'enrolled_at', type: 'timestamptz' })
  enrolledAt: Date;

  @Column({ name: 'hardware_since', type: 'timestamptz' })
  hardwareSince: Date;

  @Column({ name: 'node_year', type: 'smallint' })
  nodeYear: number;

  /** The operator's stake at the end of the period. */
  @Column({ name: 'stake_micro', type: 'bigint' })
  stakeMicro: string;

  /** What earlier periods' statements of the operator asked to be staked (cumulative). */
  @Column({ name: 'required_before_micro', type: 'bigint' })
  requiredBeforeMicro: string;

  @Column({ name: 'halving_cut', type: 'boolean' })
  halvingCut: boolean;

  /** What this statement adds to the requirement: income x the year's share. */
  @Column({ name: 'required_stake_micro', type: 'bigint' })
  requiredStakeMicro: string;

  // The base reward.
  @Column({ name: 'tier_base_micro', type: 'bigint' })
  tierBaseMicro: string;

  @Column({ name: 'pro_rata_micro', type: 'bigint' })
  proRataMicro: string;

  @Column({ name: 'reliability_basis_points', type: 'int' })
  reliabilityBasisPoints: number;

  @Column({ name: 'slash_basis_points', type: 'int' })
  slashBasisPoints: number;

  @Column({ name: 'earned_micro', type: 'bigint' })
  earnedMicro: string;

  @Column({ name: 'frozen_micro', type: 'bigint' })
  frozenMicro: string;

  @Column({ name: 'payable_micro', type: 'bigint' })
  payableMicro: string;

  // The other lines of node income (docs/product/constants.md#billing-and-the-economy).
  @Column({ name: 'subscription_clients', type: 'int' })
  subscriptionClients: number;

  @Column({ name: 'subscription_micro', type: 'bigint' })
  subscriptionMicro: string;

  @Column({ name: 'ad_bonus_micro', type: 'bigint' })
  adBonusMicro: string;

  @Column({ name: 'income_micro', type: 'bigint' })
  incomeMicro: string;

  // What the pool owes, the period's scale, and what was paid.
  @Column({ type: 'varchar', length: 8, nullable: true })
  withheld: Withheld | null;

  @Column({ name: 'pool_wallet_micro', type: 'bigint' })
  poolWalletMicro: string;

  @Column({ name: 'pool_escrow_micro', type: 'bigint' })
  poolEscrowMicro: string;

  @Column({ name: 'scale_numerator_micro', type: 'bigint' })
  scaleNumeratorMicro: string;

  @Column({ name: 'scale_denominator_micro', type: 'bigint' })
  scaleDenominatorMicro: string;

  @Column({ name: 'paid_payable_micro', type: 'bigint' })
  paidPayableMicro: string;

  @Column({ name: 'escrowed_micro', type: 'bigint' })
  escrowedMicro: string;

  @Column({ name: 'auto_stake_percent', type: 'smallint' })
  autoStakePercent: number;

  @Column({ name: 'auto_staked_micro', type: 'bigint' })
  autoStakedMicro: string;

  @Column({ name: 'wallet_micro', type: 'bigint' })
  walletMicro: string;

  @Column({ type: 'varchar', length: 10 })
  status: RewardStatementStatus;

  @Column({ name: 'computed_at', type: 'timestamptz' })
  computedAt: Date;

  @Column({ name: 'paid_at', type: 'timestamptz', nullable: true })
  paidAt: Date | null;

  @Column({ name: 'ledger_transaction_id', type: 'uuid', nullable: true })
  ledgerTransactionId: string | null;
}
