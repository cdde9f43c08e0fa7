import {
  CreateDateColumn,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { AccountEntity } from '../../accounts/entities/account.entity';
import { ServerEntity } from '../../nodes/entities/server.entity';

/** docs/product/states.md#market-and-account-states connect cooldown: a client's click on a server, processing until `until` (60 s). */
@Entity({ name: 'market_processing' })
@Index('ix_market_processing_until', ['until'])
export class MarketProcessingEntity {
  @PrimaryColumn({ name: 'client_uuid', type: 'uuid' })
  clientUuid: string;

  @PrimaryColumn({ name: 'server_id', type: 'uuid' })
  serverId: string;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'client_uuid', foreignKeyConstraintName: 'fk_market_processing_client' })
  client?: AccountEntity;

  @ManyToOne(() => ServerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'server_id', foreignKeyConstraintName: 'fk_market_processing_server' })
  server?: ServerEntity;

  @Column({ type: 'timestamptz' })
  until: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
