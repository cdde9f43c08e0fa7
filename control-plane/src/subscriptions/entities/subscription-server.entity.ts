import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ServerEntity } from '../../nodes/entities/server.entity';
import { SubscriptionEntity } from './subscription.entity';

/** A server a subscription covers, in the order the client chose them. */
@Entity({ name: 'subscription_servers' })
@Index('ix_subscription_servers_server', ['serverId'])
export class SubscriptionServerEntity {
  @PrimaryColumn({ name: 'subscription_id', type: 'uuid' })
  subscriptionId: string;

  @PrimaryColumn({ name: 'server_id', type: 'uuid' })
  serverId: string;

  @ManyToOne(() => SubscriptionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'subscription_id',
    foreignKeyConstraintName: 'fk_subscription_servers_subscription',
  })
  subscription?: SubscriptionEntity;

  @ManyToOne(() => ServerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'server_id', foreignKeyConstraintName: 'fk_subscription_servers_server' })
  server?: ServerEntity;

  @Column({ type: 'smallint' })
  position: number;
}
