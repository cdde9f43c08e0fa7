import {
  Check,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { DepositAddressEntity } from './deposit-address.entity';

/**
 * One incoming transfer to a per-account deposit address (docs/deposits.md#per-account-addresses):
 * one asset (SOL, or one SPL mint) received by one address in one transaction. The unique
 * (signature, address, asset) is what makes every path (watcher, verify, a second replica)
 * record it once; its status moves only forward, each step an UPDATE guarded by the status it
 * leaves, in the same database transaction as the ledger movement it pays for.
 *
 * status: `confirming` (seen, not yet at the commitment), `pending_minimum` (final, below the
 * minimum: credited with the others once their total reaches it), `credited`, `refused` (a mint
 * that is not accepted: never credited), `dropped` (never reached the commitment).
 */
@Entity({ name: 'deposit_transfers' })
@Index('uq_deposit_transfers_asset', ['signature', 'address', 'asset'], { unique: true })
@Index('ix_deposit_transfers_owner', ['ownerUuid', 'walletKind', 'seenAt'])
@Index('ix_deposit_transfers_open', ['status'], {
  where: `"status" IN ('confirming', 'pending_minimum')`,
})
@Check(
  'ck_deposit_transfers_status',
  `"status" IN ('confirming', 'pending_minimum', 'credited', 'refused', 'dropped')`,
)
@Check(
  'ck_deposit_transfers_currency',
  `"currency" IS NULL OR "currency" IN ('SOL', 'USDC', 'USDT')`,
)
@Check(
  'ck_deposit_transfers_credit',
  `("status" = 'credited') = ("credit_micro" IS NOT NULL AND "credited_at" IS NOT NULL)`,
)
@Check('ck_deposit_transfers_amount', `"base_units" > 0`)
export class DepositTransferEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 88 })
  signature: string;

  @Column({ type: 'varchar', length: 44 })
  address: string;

  @ManyToOne(() => DepositAddressEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({
    name: 'address',
    referencedColumnName: 'address',
    foreignKeyConstraintName: 'fk_deposit_transfers_address',
  })
  depositAddress?: DepositAddressEntity;

  @Column({ name: 'owner_uuid', type: 'uuid' })
  ownerUuid: string;

  @Column({ name: 'wallet_kind', type: 'varchar', length: 16 })
  walletKind: 'client_wallet' | 'node_wallet';

  /** 'SOL', or the SPL mint (base58) of a token transfer. */
  @Column({ type: 'varchar', length: 44 })
  asset: string;

  /** SOL, USDC or USDT; null for a mint that is not accepted. */
  @Column({ type: 'varchar', length: 8, nullable: true })
  currency: string | null;

  /** The token program of a token transfer (Token or Token-2022); null for SOL. */
  @Column({ name: 'token_program', type: 'varchar', length: 44, nullable: true })
  tokenProgram: string | null;

  /** Lamports, or the token's smallest units (u64: beyond bigint). */
  @Column({ name: 'base_units', type: 'numeric', precision: 20, scale: 0 })
  baseUnits: string;

  /** The asset's decimals on chain (9 for SOL), so that even a refused token shows its amount. */
  @Column({ type: 'smallint' })
  decimals: number;

  @Column({ type: 'varchar', length: 16 })
  status: string;

  /** Why a refused transfer is refused: unknown_mint, token_2022, too_large. */
  @Column({ name: 'refused_reason', type: 'varchar', length: 24, nullable: true })
  refusedReason: string | null;

  /** The quote in force when the transfer finalized: micro-SSL per whole unit. */
  @Column({ name: 'ssl_per_unit_micro', type: 'bigint', nullable: true })
  sslPerUnitMicro: string | null;

  @Column({ name: 'credit_micro', type: 'bigint', nullable: true })
  creditMicro: string | null;

  @Column({ type: 'bigint' })
  slot: string;

  @Column({ name: 'block_time', type: 'timestamptz', nullable: true })
  blockTime: Date | null;

  @Column({ name: 'seen_at', type: 'timestamptz' })
  seenAt: Date;

  @Column({ name: 'final_at', type: 'timestamptz', nullable: true })
  finalAt: Date | null;

  @Column({ name: 'credited_at', type: 'timestamptz', nullable: true })
  creditedAt: Date | null;
}
