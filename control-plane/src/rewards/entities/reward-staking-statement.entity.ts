import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

export type StakingStatementStatus = 'computed' | 'paid';

/**
 * An operator's staking income for one period (docs/product/constants.md#billing-and-the-economy: stake x 12% / 12 a
 * month on the stake held through the whole period), paid from the pool to the node wallet.
 */
@Entity({ name: 'reward_staking_statements' })
@Check('ck_reward_staking_statements_status', `"status" IN ('computed', 'paid')`)
export class RewardStakingStatementEntity {
  @PrimaryColumn({ name: 'owner_uuid', type: 'uuid' })
  ownerUuid: string;

  @PrimaryColumn({ type: 'date' })
  period: string;

  @Column({ name: 'stake_at_start_micro', type: 'bigint' })
  stakeAtStartMicro: string;

  @Column({ name: 'stake_at_end_micro', type: 'bigint' })
  stakeAtEndMicro: string;

  /** stakingIncomeMicro(start, end), before the budget scale. */
  @Column({ name: 'income_micro', type: 'bigint' })
  incomeMicro: string;

  @Column({ name: 'scale_numerator_micro', type: 'bigint' })
  scaleNumeratorMicro: string;

  @Column({ name: 'scale_denominator_micro', type: 'bigint' })
  scaleDenominatorMicro: string;

  /** The income after the scale: what the pool pays. */
  @Column({ name: 'paid_micro', type: 'bigint' })
  paidMicro: string;

  @Column({ type: 'varchar', length: 10 })
  status: StakingStatementStatus;

  @Column({ name: 'computed_at', type: 'timestamptz' })
  computedAt: Date;

  @Column({ name: 'paid_at', type: 'timestamptz', nullable: true })
  paidAt: Date | null;

  @Column({ name: 'ledger_transaction_id', type: 'uuid', nullable: true })
  ledgerTransactionId: string | null;
}
