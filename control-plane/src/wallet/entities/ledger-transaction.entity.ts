import type { TransactionDescriptionCode, TransactionType } from '@scn/proto';
import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The ledger's transaction types: the contract's TRANSACTION_TYPES (docs/product/records.md#market-and-wallet-records's, plus the
 * movements our server makes itself), so that every type a wallet lists is one the portal labels.
 */
export type LedgerTransactionType = TransactionType;

/**
 * One movement of money: a set of entries (ledger_entries) that sums to zero, checked by a
 * deferred constraint trigger at commit. Never updated or deleted.
 */
@Entity({ name: 'ledger_transactions' })
@Index('ix_ledger_transactions_subscription', ['subscriptionId'])
// A BRIN index on the creation time (append-only, so in time order) for the
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

  /** docs/product/calls.md#market-and-account-calls pay-subscription: duration '1month'; hourly blocks say '100hours'. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  duration: string | null;

  /** English, for logs and older clients; the portal words `descriptionCode` instead. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  description: string | null;

  /** What it is, a code of TRANSACTION_DESCRIPTION_CODES (null on older rows). */
  @Column({ name: 'description_code', type: 'varchar', length: 40, nullable: true })
  descriptionCode: TransactionDescriptionCode | null;

  /** The code's values (TransactionDescriptionValues). */
  @Column({ name: 'description_values', type: 'jsonb', nullable: true })
  descriptionValues: Record<string, string | number | boolean> | null;

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
