import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ServerEntity } from '../../nodes/entities/server.entity';
import { LedgerTransactionEntity } from '../../wallet/entities/ledger-transaction.entity';

/**
 * One promotion bought (docs/product/states.md#market-and-account-states): the plan, its price as the server charged it, how it was
 * split (10% burned, the rest to the reward pool: docs/product/constants.md#billing-and-the-economy), the expiry it set, and the ledger
 * transaction that paid it, written in the same database transaction.
 */
@Entity({ name: 'promotion_purchases' })
@Index('ix_promotion_purchases_server', ['serverId', 'createdAt'])
@Check(
  'ck_promotion_purchases_amounts',
  `"cost_micro" > 0 AND "burn_micro" >= 0 AND "pool_micro" > 0 AND "cost_micro" = "burn_micro" + "pool_micro"`,
)
@Check('ck_promotion_purchases_plan', `"plan" IN ('basic', 'standard', 'premium')`)
export class PromotionPurchaseEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'server_id', type: 'uuid' })
  serverId: string;

  @ManyToOne(() => ServerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'server_id', foreignKeyConstraintName: 'fk_promotion_purchases_server' })
  server?: ServerEntity;

  /** The operator who paid (the server's owner at the time). */
  @Column({ name: 'owner_uuid', type: 'uuid' })
  ownerUuid: string;

  @Column({ type: 'varchar', length: 16 })
  plan: string;

  @Column({ type: 'smallint' })
  days: number;

  @Column({ name: 'cost_micro', type: 'bigint' })
  costMicro: string;

  @Column({ name: 'burn_micro', type: 'bigint' })
  burnMicro: string;

  @Column({ name: 'pool_micro', type: 'bigint' })
  poolMicro: string;

  /** The promotion's end after this purchase (an upgrade extends the current one). */
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'ledger_transaction_id', type: 'uuid' })
  ledgerTransactionId: string;

  @ManyToOne(() => LedgerTransactionEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({
    name: 'ledger_transaction_id',
    foreignKeyConstraintName: 'fk_promotion_purchases_ledger_transaction',
  })
  ledgerTransaction?: LedgerTransactionEntity;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
