import {
  Check,
  Column,
  Entity,
  Generated,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { AccountEntity } from '../../accounts/entities/account.entity';

/**
 * An account wallet's own deposit address (docs/deposits.md#per-account-addresses). The
 * derivation index comes from one sequence, so it is assigned once and never shared (whatever
 * the wallet kind); the address is SLIP-0010 m/44'/501'/<index>'/0' of SOLANA_DEPOSIT_SEED,
 * stored for lookup only (the seed and the keys never are). The primary key makes concurrent
 * first calls agree on one row.
 */
@Entity({ name: 'deposit_addresses' })
@Check('ck_deposit_addresses_wallet', `"wallet_kind" IN ('client_wallet', 'node_wallet')`)
export class DepositAddressEntity {
  @PrimaryColumn({ name: 'owner_uuid', type: 'uuid' })
  ownerUuid: string;

  @PrimaryColumn({ name: 'wallet_kind', type: 'varchar', length: 16 })
  walletKind: 'client_wallet' | 'node_wallet';

  @ManyToOne(() => AccountEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'owner_uuid', foreignKeyConstraintName: 'fk_deposit_addresses_owner' })
  owner?: AccountEntity;

  @Index('uq_deposit_addresses_index', { unique: true })
  @Column({ name: 'derivation_index', type: 'int' })
  @Generated('increment')
  derivationIndex: number;

  @Index('uq_deposit_addresses_address', { unique: true })
  @Column({ type: 'varchar', length: 44 })
  address: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  /** The latest credit that left funds here to sweep; cleared by a sweep that read the balances after it. */
  @Column({ name: 'sweep_due_at', type: 'timestamptz', nullable: true })
  sweepDueAt: Date | null;
}
