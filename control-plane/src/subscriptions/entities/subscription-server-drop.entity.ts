import type { ServerDropReason } from '@scn/proto';
import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { SubscriptionEntity } from './subscription.entity';

/**
 * A server dropped from a subscription because it could no longer serve, and the
 * refund of the client's unused paid time on it. The unique key makes the drop, and so the
 * refund, happen once per subscription, server and paid period whoever runs it (the server drop
 * job on any replica, a renewal, the server's deletion). No foreign key to the server: the row
 * outlives a deleted server, whose name it keeps for the client's dashboard.
 */
@Entity({ name: 'subscription_server_drops' })
@Index('uq_subscription_server_drops_period', ['subscriptionId', 'serverId', 'periodIndex'], {
  unique: true,
})
@Check('ck_subscription_server_drops_reason', `"reason" IN ('hidden', 'banned', 'deleted')`)
@Check('ck_subscription_server_drops_refund', `"refund_micro" >= 0`)
export class SubscriptionServerDropEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_subscription_server_drops' })
  id: string;

  @Column({ name: 'subscription_id', type: 'uuid' })
  subscriptionId: string;

  @ManyToOne(() => SubscriptionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'subscription_id',
    foreignKeyConstraintName: 'fk_subscription_server_drops_subscription',
  })
  subscription?: SubscriptionEntity;

  @Column({ name: 'server_id', type: 'uuid' })
  serverId: string;

  @Column({ name: 'server_name', type: 'varchar', length: 100 })
  serverName: string;

  /** The subscription's paid period when the server was dropped (subscriptions.period_index). */
  @Column({ name: 'period_index', type: 'int' })
  periodIndex: number;

  @Column({ type: 'varchar', length: 8 })
  reason: ServerDropReason;

  /** When the server stopped being able to serve: the refund covers paid time from here on. */
  @Column({ name: 'unable_since', type: 'timestamptz' })
  unableSince: Date;

  @Column({ name: 'dropped_at', type: 'timestamptz' })
  droppedAt: Date;

  /**
   * micro-SSL given back to the client (its ledger movement: external_ref `server_drop:<id>`;
   * drops recorded before the rename carry `withdrawal:<id>`).
   */
  @Column({ name: 'refund_micro', type: 'bigint' })
  refundMicro: string;
}
