import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

export type RewardRunStatus = 'computed' | 'paid';

/**
 * One period's monthly reward run: written with every statement of the period in
 * one transaction (its primary key makes the run happen once), marked paid when the last
 * statement is. Holds the pool, the budget and the scale the statements were paid at.
 */
@Entity({ name: 'reward_runs' })
@Check('ck_reward_runs_status', `"status" IN ('computed', 'paid')`)
export class RewardRunEntity {
  /** The period's first day (UTC month). */
  @PrimaryColumn({ type: 'date' })
  period: string;

  @Column({ type: 'varchar', length: 10 })
  status: RewardRunStatus;

  /** Months since the pool's genesis month: the period's place in the 12-month cycle. */
  @Column({ name: 'month_index', type: 'int' })
  monthIndex: number;

  /** The pool's balance when the period was computed, and the budget it gives the period. */
  @Column({ name: 'pool_micro', type: 'bigint' })
  poolMicro: string;

  @Column({ name: 'budget_micro', type: 'bigint' })
  budgetMicro: string;

  /** What the period's statements and staking incomes asked of the pool before scaling. */
  @Column({ name: 'demand_micro', type: 'bigint' })
  demandMicro: string;

  @Column({ name: 'scale_numerator_micro', type: 'bigint' })
  scaleNumeratorMicro: string;

  @Column({ name: 'scale_denominator_micro', type: 'bigint' })
  scaleDenominatorMicro: string;

  @Column({ type: 'int' })
  statements: number;

  @Column({ name: 'staking_statements', type: 'int' })
  stakingStatements: number;

  @Column({ name: 'computed_at', type: 'timestamptz' })
  computedAt: Date;

  @Column({ name: 'paid_at', type: 'timestamptz', nullable: true })
  paidAt: Date | null;
}
