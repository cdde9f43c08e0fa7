import { Check, Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { ServerEntity } from '../../nodes/entities/server.entity';

/**
 * A server's promotion account (docs/product/input-rules.md#market-and-account-input, docs/product/constants.md#market-prices-and-limits): what its owner has paid for promotions so far,
 * which the 4,000 SSL cap counts, and when the current promotion ends. Written only by a
 * promotion, under the lock of the server's market listing; the CHECK refuses a total past the
 * cap even if a writer forgot that lock.
 */
@Entity({ name: 'server_promotions' })
@Check('ck_server_promotions_cap', `"amount_paid_micro" > 0 AND "amount_paid_micro" <= 4000000000`)
export class ServerPromotionEntity {
  @PrimaryColumn({ name: 'server_id', type: 'uuid' })
  serverId: string;

  @OneToOne(() => ServerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'server_id', foreignKeyConstraintName: 'fk_server_promotions_server' })
  server?: ServerEntity;

  /** Micro-SSL paid for this server's promotions, every plan since its first. */
  @Column({ name: 'amount_paid_micro', type: 'bigint' })
  amountPaidMicro: string;

  /** When the latest promotion ends (server clock). */
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
