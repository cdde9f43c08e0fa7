import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * spec 01 §3 transaction types: deposit, withdrawal, subscription, subscription_reward,
 * monthly_reward; plus the movements our server makes itself.
 */
export type LedgerTransactionType =
  | 'deposit'
  | 'withdrawal'
  | 'subscription'
  | 'subscription_reward'
  | 'monthly_reward'
  | 'billing_change'
  | 'activation'
  | 'promotion'
  | 'social_reward'
  | 'test_deposit'
  /** issue 15 §7: unused paid time on a server that could not serve, given back. */
  | 'refund'
  /** issue 18: the reward pool minted once. */
  | 'genesis'
  /** issue 18 §4: stake income, stakes and unstakes. */
  | 'staking_reward'
  | 'stake'
  | 'unstake'
  /** issue 18 §3: escrowed rewards released on recovery, or given back to the pool on a ban. */
  | 'reward_release'
  | 'reward_forfeit'
  /** issue 18 §5: a failed payout given back to the wallet (its amount and its fee). */
  | 'withdrawal_reversal';

/**
 * One movement of money: a set of entries (ledger_entries) that sums to zero, checked by a
 * deferred constraint trigger at commit. Never updated or deleted.
 */
@Entity({ name: 'ledger_transactions' })
@Index('ix_ledger_transactions_subscription', ['subscriptionId'])
// Issue 18 §2: a BRIN index on the creation time (append-only, so in time order) for the
// monthly statements' reads of a period's subscription rewards.
@Index('ix_ledger_transactions_created_at', { synchronize: false })
export class LedgerTransactionEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  type: LedgerTransactionType;

  /** The account (user) whose action caused it, if any. */
  @Column({ name: 'initiator_uuid', type: 'uuid', nullable: true })
  initiatorUuid: string | null;

  @Column({ name: 'subscription_id', type: 'uuid', nullable: true })
  subscriptionId: string | null;

  @Column({ name: 'server_count', type: 'int', nullable: true })
  serverCount: number | null;

  /** spec 01 §7 pay-subscription: duration '1month'; hourly blocks say '100hours'. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  duration: string | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  description: string | null;

  /** What makes a movement happen once (e.g. a deposit's on-chain signature, a billing period). */
  @Index('uq_ledger_transactions_external_ref', {
    unique: true,
    where: '"external_ref" IS NOT NULL',
  })
  @Column({ name: 'external_ref', type: 'varchar', length: 200, nullable: true })
  externalRef: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
