import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { SubscriptionEntity } from './subscription.entity';

/** A pause the client asked for: what the pause allowance counts (docs/product/constants.md#billing-and-the-economy). */
@Entity({ name: 'subscription_pauses' })
@Index('ix_subscription_pauses_subscription', ['subscriptionId', 'startedAt'])
export class SubscriptionPauseEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'subscription_id', type: 'uuid' })
  subscriptionId: string;

  @ManyToOne(() => SubscriptionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'subscription_id',
    foreignKeyConstraintName: 'fk_subscription_pauses_subscription',
  })
  subscription?: SubscriptionEntity;

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt: Date;

  /** When it ends by itself. */
  @Column({ name: 'ends_at', type: 'timestamptz' })
  endsAt: Date;

  @Column({ name: 'resumed_at', type: 'timestamptz', nullable: true })
  resumedAt: Date | null;
}
