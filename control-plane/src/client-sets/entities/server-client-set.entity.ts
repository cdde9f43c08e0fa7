import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { ServerEntity } from '../../nodes/entities/server.entity';

/**
 * The version of a server's allowed client set: bumped with every change of its
 * `server_clients`, pushed to the node with the set. A row of its own (created with the server
 * by a trigger), so that purchases lock and bump it without touching `servers`, whose rows the
 * agents' report batches write: a purchase never waits for a report batch, nor the reverse.
 */
@Entity({ name: 'server_client_sets' })
export class ServerClientSetEntity {
  @PrimaryColumn({ name: 'server_id', type: 'uuid' })
  serverId: string;

  @OneToOne(() => ServerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'server_id', foreignKeyConstraintName: 'fk_server_client_sets_server' })
  server?: ServerEntity;

  @Column({ type: 'bigint', default: 0 })
  version: string;
}
