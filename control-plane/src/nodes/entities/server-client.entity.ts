import { CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ServerEntity } from './server.entity';

/** A client UUID allowed on a server: the set the control plane pushes to the node. */
@Entity({ name: 'server_clients' })
export class ServerClientEntity {
  @PrimaryColumn({ name: 'server_id', type: 'uuid' })
  serverId: string;

  @PrimaryColumn({ name: 'client_uuid', type: 'uuid' })
  clientUuid: string;

  @ManyToOne(() => ServerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'server_id', foreignKeyConstraintName: 'fk_server_clients_server' })
  server?: ServerEntity;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
