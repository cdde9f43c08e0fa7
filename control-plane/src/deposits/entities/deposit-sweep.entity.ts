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
 * A sweep of one deposit address to the treasury (docs/deposits.md#sweeps): the transaction is
 * signed and stored here before it is sent, so a crash between send and confirm resumes with
 * the same signature (resent until its blockhash expires). At most one sweep per address is in
 * flight. Sweeps move on-chain funds only: the ledger never reads this table.
 *
 * status: `sent` (signed and stored, maybe sent), `done` (landed), `failed` (landed with an
 * error), `expired` (its blockhash expired without it landing).
 */
@Entity({ name: 'deposit_sweeps' })
@Index('uq_deposit_sweeps_in_flight', ['address'], { unique: true, where: `"status" = 'sent'` })
@Check('ck_deposit_sweeps_status', `"status" IN ('sent', 'done', 'failed', 'expired')`)
export class DepositSweepEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 44 })
  address: string;

  @ManyToOne(() => DepositAddressEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({
    name: 'address',
    referencedColumnName: 'address',
    foreignKeyConstraintName: 'fk_deposit_sweeps_address',
  })
  depositAddress?: DepositAddressEntity;

  @Index('uq_deposit_sweeps_signature', { unique: true })
  @Column({ type: 'varchar', length: 88 })
  signature: string;

  /** The signed transaction, base64, as sent. */
  @Column({ name: 'signed_transaction', type: 'text' })
  signedTransaction: string;

  @Column({ name: 'last_valid_block_height', type: 'bigint' })
  lastValidBlockHeight: string;

  /** What it moves: lamports, and the token base units per mint. */
  @Column({ type: 'numeric', precision: 20, scale: 0 })
  lamports: string;

  @Column({ type: 'jsonb' })
  tokens: Array<{ mint: string; baseUnits: string }>;

  @Column({ type: 'varchar', length: 8 })
  status: string;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'settled_at', type: 'timestamptz', nullable: true })
  settledAt: Date | null;
}
