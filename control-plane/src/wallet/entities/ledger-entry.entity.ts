import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { LedgerAccountEntity } from './ledger-account.entity';
import { LedgerTransactionEntity } from './ledger-transaction.entity';

/** One side of a movement: a signed amount on one account. */
@Entity({ name: 'ledger_entries' })
@Index('ix_ledger_entries_account', ['accountId', 'id'])
@Index('ix_ledger_entries_transaction', ['transactionId'])
@Check('ck_ledger_entries_amount_not_zero', `"amount_micro" <> 0`)
export class LedgerEntryEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ name: 'transaction_id', type: 'uuid' })
  transactionId: string;

  @ManyToOne(() => LedgerTransactionEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'transaction_id', foreignKeyConstraintName: 'fk_ledger_entries_transaction' })
  transaction?: LedgerTransactionEntity;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @ManyToOne(() => LedgerAccountEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'fk_ledger_entries_account' })
  account?: LedgerAccountEntity;

  /** Signed micro-SSL (bigint as string). */
  @Column({ name: 'amount_micro', type: 'bigint' })
  amountMicro: string;

  /** docs/product/constants.md#market-prices-and-limits: operator rewards are frozen 60 days before withdrawal. */
  @Column({ name: 'frozen_until', type: 'timestamptz', nullable: true })
  frozenUntil: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
