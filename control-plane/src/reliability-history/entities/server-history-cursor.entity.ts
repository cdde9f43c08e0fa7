import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * How far one server's reliability history is written, and the day being written.
 *
 * The sweep integrates from `history_until` to now every minute and moves it in the statement
 * that writes the figures, guarded by the value it read, so no interval is counted twice. The
 * current UTC day accumulates here (`pending_*`) and goes to server_reliability_days once the day
 * is over (or the server stops accruing): a day row is then written about once, not once a
 * minute, and the minute's update lands on this narrow table, kept half empty so it stays a HOT
 * update (no index entry, old versions pruned in place). Readers add the pending day to the rows.
 *
 * Its own table, not columns of `servers`: a write to the server row every minute would change
 * the row version each agent report's write is checked against (AgentReportRepository), so
 * every report after a sweep would miss and be read and written again. No foreign key: a deleted
 * server's cursor stays until the sweep has moved its pending day to the day rows (with the owner
 * and tier kept here), then goes.
 */
@Entity({ name: 'server_history_cursors' })
export class ServerHistoryCursorEntity {
  @PrimaryColumn({ name: 'server_id', type: 'uuid' })
  serverId: string;

  /** The history is written up to this instant (a whole second), exclusive. */
  @Column({ name: 'history_until', type: 'timestamptz' })
  historyUntil: Date;

  /** The server's owner and tier as last read: the pending day's, kept past a deletion. */
  @Column({ name: 'owner_uuid', type: 'uuid' })
  ownerUuid: string;

  @Column({ type: 'varchar', length: 8, nullable: true })
  tier: string | null;

  /** The UTC day being accumulated (null: none). */
  @Column({ name: 'pending_day', type: 'date', nullable: true })
  pendingDay: string | null;

  @Column({ name: 'pending_observed_seconds', type: 'int', default: 0 })
  pendingObservedSeconds: number;

  @Column({ name: 'pending_reliability_seconds', type: 'bigint', default: 0 })
  pendingReliabilitySeconds: string;

  @Column({ name: 'pending_below_seconds', type: 'int', default: 0 })
  pendingBelowSeconds: number;

  @Column({ name: 'pending_stale_seconds', type: 'int', default: 0 })
  pendingStaleSeconds: number;

  @Column({ name: 'pending_min_reliability', type: 'smallint', default: 100 })
  pendingMinReliability: number;
}
