import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

export type DepositRequestStatus = 'open' | 'credited';

/**
 * One deposit request: an account's SOL amount and the quote fixed for it, and
 * the Solana Pay reference key its transfer must carry. `expired` is not stored: it is an open
 * request past its quote (and the grace), which the views compute.
 */
@Entity({ name: 'deposit_requests' })
@Index('ix_deposit_requests_owner', ['ownerUuid', 'createdAt'])
@Check('ck_deposit_requests_status', `"status" IN ('open', 'credited')`)
@Check('ck_deposit_requests_wallet', `"wallet_kind" IN ('client_wallet', 'node_wallet')`)
@Check('ck_deposit_requests_amounts', `"lamports" > 0 AND "credit_micro" > 0`)
export class DepositRequestEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'owner_uuid', type: 'uuid' })
  ownerUuid: string;

  @Column({ name: 'wallet_kind', type: 'varchar', length: 16 })
  walletKind: 'client_wallet' | 'node_wallet';

  @Column({ name: 'user_address', type: 'varchar', length: 44 })
  userAddress: string;

  @Index('uq_deposit_requests_reference', { unique: true })
  @Column({ type: 'varchar', length: 44 })
  reference: string;

  @Column({ type: 'bigint' })
  lamports: string;

  /** The quote: whole SSL per SOL. */
  @Column({ name: 'ssl_per_sol', type: 'int' })
  sslPerSol: number;

  @Column({ name: 'credit_micro', type: 'bigint' })
  creditMicro: string;

  @Column({ type: 'varchar', length: 16, default: 'open' })
  status: DepositRequestStatus;

  @Column({ type: 'varchar', length: 88, nullable: true })
  signature: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'credited_at', type: 'timestamptz', nullable: true })
  creditedAt: Date | null;
}
