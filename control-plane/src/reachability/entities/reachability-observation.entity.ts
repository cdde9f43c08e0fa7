import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ServerEntity } from '../../nodes/entities/server.entity';

/**
 * The latest observation of one observer (a vantage point, or a client account's report) of one
 * server from one country and network. One row per observer: an observer that says the same
 * thing a thousand times still counts once. Pruned after a day (docs/reachability.md).
 */
@Entity({ name: 'reachability_observations' })
@Check('ck_reachability_observations_kind', `"observer_kind" IN ('probe', 'client')`)
@Index('ix_reachability_observations_observed', ['observedAt'])
@Index('ix_reachability_observations_observer', ['observerId', 'observedAt'])
export class ReachabilityObservationEntity {
  @PrimaryColumn({ name: 'server_id', type: 'uuid' })
  serverId: string;

  @ManyToOne(() => ServerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'server_id',
    foreignKeyConstraintName: 'fk_reachability_observations_server',
  })
  server?: ServerEntity;

  @PrimaryColumn({ type: 'char', length: 2 })
  country: string;

  /** 0 when the address has no known network. */
  @PrimaryColumn({ type: 'int' })
  asn: number;

  /** The vantage point's id, or the reporting account's uuid. */
  @PrimaryColumn({ name: 'observer_id', type: 'uuid' })
  observerId: string;

  @Column({ name: 'observer_kind', type: 'varchar', length: 8 })
  observerKind: 'probe' | 'client';

  @Column({ type: 'boolean' })
  works: boolean;

  /** ProbeErrorClass for a probe; 'reported' for a client. */
  @Column({ name: 'error_class', type: 'varchar', length: 20 })
  errorClass: string;

  @Column({ name: 'total_ms', type: 'int', nullable: true })
  totalMs: number | null;

  /** The server's inbound plan revision the observation was of (a new port starts afresh). */
  @Column({ name: 'plan_revision', type: 'bigint' })
  planRevision: string;

  @Column({ name: 'observed_at', type: 'timestamptz' })
  observedAt: Date;
}
