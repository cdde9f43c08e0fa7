import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { DepositRequestEntity } from './deposit-request.entity';

/**
 * A credited on-chain transfer. Its primary key (the signature) and the unique request id are
 * what make a deposit credit once per signature and once per request: the insert is refused by
 * the database, in the same transaction as the ledger movement, never checked first.
 */
@Entity({ name: 'deposit_credits' })
export class DepositCreditEntity {
  @PrimaryColumn({ type: 'varchar', length: 88 })
  signature: string;

  @Index('uq_deposit_credits_request', { unique: true })
  @Column({ name: 'request_id', type: 'uuid' })
  requestId: string;

  @ManyToOne(() => DepositRequestEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'request_id', foreignKeyConstraintName: 'fk_deposit_credits_request' })
  request?: DepositRequestEntity;

  @Column({ name: 'owner_uuid', type: 'uuid' })
  ownerUuid: string;

  @Column({ type: 'bigint' })
  lamports: string;

  @Column({ name: 'ssl_per_sol', type: 'int' })
  sslPerSol: number;

  @Column({ name: 'credit_micro', type: 'bigint' })
  creditMicro: string;

  /** The sender (fee payer) of the transfer. */
  @Column({ name: 'sender', type: 'varchar', length: 44 })
  sender: string;

  @Column({ name: 'block_time', type: 'timestamptz', nullable: true })
  blockTime: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
