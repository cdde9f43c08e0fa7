import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ServerEntity } from '../../nodes/entities/server.entity';

/**
 * The estimate per server x country x network, recomputed from the observations whenever one
 * arrives (docs/reachability.md#the-estimate). Compact on purpose: 100,000 servers x 50
 * networks is 5 million rows.
 */
@Entity({ name: 'server_reachability' })
/** The market's filter and the replacement search read one network's servers. */
@Index('ix_server_reachability_network', ['country', 'asn', 'state'])
export class ServerReachabilityEntity {
  @PrimaryColumn({ name: 'server_id', type: 'uuid' })
  serverId: string;

  @ManyToOne(() => ServerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'server_id', foreignKeyConstraintName: 'fk_server_reachability_server' })
  server?: ServerEntity;

  @PrimaryColumn({ type: 'char', length: 2 })
  country: string;

  @PrimaryColumn({ type: 'int' })
  asn: number;

  /** 0 to 1000: the weighted share of the observers that found it working. */
  @Column({ type: 'smallint' })
  score: number;

  /** 'w' works, 'b' blocked, 'u' not enough to say (docs/reachability.md). */
  @Column({ type: 'char', length: 1 })
  state: 'w' | 'b' | 'u';

  @Column({ type: 'smallint' })
  observers: number;

  @Column({ type: 'smallint' })
  probes: number;

  @Column({ name: 'measured_at', type: 'timestamptz' })
  measuredAt: Date;

  @Column({ name: 'blocked_since', type: 'timestamptz', nullable: true })
  blockedSince: Date | null;

  /** The server's inbound plan it is of: after a new port, a row of the old one means nothing. */
  @Column({ name: 'plan_revision', type: 'bigint' })
  planRevision: string;
}
