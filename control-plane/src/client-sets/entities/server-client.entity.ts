import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ServerEntity } from '../../nodes/entities/server.entity';

/**
 * A client's place on a server. Enabled places are the set the control plane pushes to the
 * node; a disabled one (a subscription its client paused) keeps the slot, so the server's
 * capacity counts every row, but the node does not let that UUID in.
 */
@Entity({ name: 'server_clients' })
export class ServerClientEntity {
  @PrimaryColumn({ name: 'server_id', type: 'uuid' })
  serverId: string;

  @PrimaryColumn({ name: 'client_uuid', type: 'uuid' })
  clientUuid: string;

  @ManyToOne(() => ServerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'server_id', foreignKeyConstraintName: 'fk_server_clients_server' })
  server?: ServerEntity;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
