import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { WithdrawalStatus } from '@scn/proto';
import { LedgerTransactionEntity } from '../../wallet/entities/ledger-transaction.entity';

/**
 * One withdrawal of a node operator: the SSL taken from the node wallet (amount,
 * its 25% fee and the net paid out), the quote (SSL per SOL and the lamports it pays), and the
 * payout transaction once signed. The signed transaction and its blockhash are stored before it
 * is first sent, so a restart asks the chain about that very signature before sending it again,
 * and a blockhash past its last valid block height with no landing means it never will land.
 *
 * pending: debited, not signed yet; sent: signed and handed to the chain (maybe not landed);
 * confirmed: landed and reached SOLANA_COMMITMENT; failed: will never land (or landed with an
 * error) and its amount was given back by exactly one reversal.
 */
@Entity({ name: 'withdrawals' })
@Index('ix_withdrawals_owner', ['ownerUuid', 'createdAt'])
@Index('ix_withdrawals_open', ['createdAt'], { where: `"status" IN ('pending', 'sent')` })
@Index('uq_withdrawals_idempotency', ['ownerUuid', 'idempotencyKey'], {
  unique: true,
  where: '"idempotency_key" IS NOT NULL',
})
@Check('ck_withdrawals_status', `"status" IN ('pending', 'sent', 'confirmed', 'failed')`)
@Check(
  'ck_withdrawals_amounts',
  `"fee_micro" >= 0 AND "net_micro" > 0 AND "amount_micro" = "fee_micro" + "net_micro" AND "lamports" > 0 AND "ssl_per_sol" > 0`,
)
@Check(
  'ck_withdrawals_signed',
  `("status" = 'pending') = ("signature" IS NULL) AND ("signature" IS NULL) = ("signed_transaction" IS NULL) AND ("signature" IS NULL) = ("last_valid_block_height" IS NULL)`,
)
@Check('ck_withdrawals_reversed', `("status" = 'failed') = ("reversal_transaction_id" IS NOT NULL)`)
export class WithdrawalEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'owner_uuid', type: 'uuid' })
  ownerUuid: string;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: WithdrawalStatus;

  @Column({ name: 'amount_micro', type: 'bigint' })
  amountMicro: string;

  /** docs/product/roles.md#who-may-use-the-dashboards: the 25% protocol fee, credited to platform_revenue. */
  @Column({ name: 'fee_micro', type: 'bigint' })
  feeMicro: string;

  @Column({ name: 'net_micro', type: 'bigint' })
  netMicro: string;

  /** The quote: whole SSL per SOL at the request. */
  @Column({ name: 'ssl_per_sol', type: 'int' })
  sslPerSol: number;

  @Column({ type: 'bigint' })
  lamports: string;

  @Column({ type: 'varchar', length: 44 })
  destination: string;

  @Column({ name: 'idempotency_key', type: 'varchar', length: 128, nullable: true })
  idempotencyKey: string | null;

  @Column({ name: 'ledger_transaction_id', type: 'uuid' })
  ledgerTransactionId: string;

  @ManyToOne(() => LedgerTransactionEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({
    name: 'ledger_transaction_id',
    foreignKeyConstraintName: 'fk_withdrawals_ledger_transaction',
  })
  ledgerTransaction?: LedgerTransactionEntity;

  @Column({ name: 'reversal_transaction_id', type: 'uuid', nullable: true })
  reversalTransactionId: string | null;

  @ManyToOne(() => LedgerTransactionEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({
    name: 'reversal_transaction_id',
    foreignKeyConstraintName: 'fk_withdrawals_reversal_transaction',
  })
  reversalTransaction?: LedgerTransactionEntity;

  @Index('uq_withdrawals_signature', { unique: true })
  @Column({ type: 'varchar', length: 88, nullable: true })
  signature: string | null;

  @Column({ type: 'varchar', length: 44, nullable: true })
  blockhash: string | null;

  @Column({ name: 'last_valid_block_height', type: 'bigint', nullable: true })
  lastValidBlockHeight: string | null;

  /** The signed payout transaction (base64 wire format): resent as is, never re-signed. */
  @Column({ name: 'signed_transaction', type: 'text', nullable: true })
  signedTransaction: string | null;

  @Column({ name: 'send_attempts', type: 'int', default: 0 })
  sendAttempts: number;

  @Column({ name: 'failure_reason', type: 'varchar', length: 300, nullable: true })
  failureReason: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt: Date | null;

  @Column({ name: 'confirmed_at', type: 'timestamptz', nullable: true })
  confirmedAt: Date | null;

  @Column({ name: 'failed_at', type: 'timestamptz', nullable: true })
  failedAt: Date | null;
}
