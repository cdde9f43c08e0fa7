import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One server's reliability over one UTC day: the facts rewards are computed from
 * and the node dashboard's chart draws. Written by the reliability sweep as time passes (the
 * score between reports is a function of the last report and the clock), and by the report
 * writer for the drops reports cause. Kept after the server is deleted or banned (with its
 * owner and tier of the day), so a period's statement can still be computed.
 */
@Entity({ name: 'server_reliability_days' })
@Index('ix_server_reliability_days_day', { synchronize: false })
export class ServerReliabilityDayEntity {
  @PrimaryColumn({ name: 'server_id', type: 'uuid' })
  serverId: string;

  @PrimaryColumn({ type: 'date' })
  day: string;

  @Column({ name: 'owner_uuid', type: 'uuid' })
  ownerUuid: string;

  @Column({ type: 'varchar', length: 8, nullable: true })
  tier: string | null;

  /** Seconds of the day the server was enrolled and not banned (at most 86,400). */
  @Column({ name: 'observed_seconds', type: 'int', default: 0 })
  observedSeconds: number;

  /** Sum of reliability (0 to 100) x seconds: the time-weighted average is this / observed. */
  @Column({ name: 'reliability_seconds', type: 'bigint', default: 0 })
  reliabilitySeconds: string;

  /** Seconds below the 95% threshold (hidden from the market, base reward frozen). */
  @Column({ name: 'below_seconds', type: 'int', default: 0 })
  belowSeconds: number;

  /** Seconds with the last report older than an hour (the drop reason "stale reports"). */
  @Column({ name: 'stale_seconds', type: 'int', default: 0 })
  staleSeconds: number;

  /** Reports whose client count failed (-10 each) or was malformed (-5 each). */
  @Column({ name: 'failed_reports', type: 'int', default: 0 })
  failedReports: number;

  @Column({ name: 'malformed_reports', type: 'int', default: 0 })
  malformedReports: number;

  /** The lowest score seen that day. */
  @Column({ name: 'min_reliability', type: 'smallint', default: 100 })
  minReliability: number;
}
