import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { SubscriptionEntity } from './subscription.entity';

/**
 * A server of a subscription that is blocked where the client is, replaced by a comparable
 * reachable one for the rest of the paid period at no charge to the client
 * (docs/reachability.md#replacements). Unique per subscription, blocked server and period, so a
 * replacement happens once whoever runs it; the money for the rest of the period moves from the
 * blocked server's side to the replacement's operator in one ledger movement (external_ref
 * `replacement:<id>`). No foreign keys to the servers: the row outlives a deleted server, whose
 * name it keeps for the client's dashboard.
 */
@Entity({ name: 'subscription_replacements' })
@Index(
  'uq_subscription_replacements_period',
  ['subscriptionId', 'blockedServerId', 'periodIndex'],
  {
    unique: true,
  },
)
@Check('ck_subscription_replacements_amount', `"moved_micro" >= 0`)
export class SubscriptionReplacementEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'subscription_id', type: 'uuid' })
  subscriptionId: string;

  @ManyToOne(() => SubscriptionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'subscription_id',
    foreignKeyConstraintName: 'fk_subscription_replacements_subscription',
  })
  subscription?: SubscriptionEntity;

  @Column({ name: 'blocked_server_id', type: 'uuid' })
  blockedServerId: string;

  @Column({ name: 'blocked_server_name', type: 'varchar', length: 100 })
  blockedServerName: string;

  @Column({ name: 'replacement_server_id', type: 'uuid' })
  replacementServerId: string;

  @Column({ name: 'replacement_server_name', type: 'varchar', length: 100 })
  replacementServerName: string;

  /** The client's country and network the blocked server was blocked in. */
  @Column({ type: 'char', length: 2 })
  country: string;

  @Column({ type: 'int' })
  asn: number;

  @Column({ name: 'period_index', type: 'int' })
  periodIndex: number;

  @Column({ name: 'replaced_at', type: 'timestamptz' })
  replacedAt: Date;

  /** micro-SSL moved to the replacement's operator for the rest of the period. */
  @Column({ name: 'moved_micro', type: 'bigint' })
  movedMicro: string;
}
