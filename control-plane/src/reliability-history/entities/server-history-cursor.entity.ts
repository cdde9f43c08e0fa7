import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { ServerEntity } from '../../nodes/entities/server.entity';

/**
 * How far one server's reliability history is written (issue 18 §1): the sweep integrates from
 * here to now and moves it in the statement that adds the day rows, guarded by the value it read,
 * so no interval is counted twice. Its own table, not a column of `servers`: the sweep moves it
 * for every server every minute, and a write to the server row would change the row version that
 * each report's write is checked against (AgentReportRepository), so every report after a sweep
 * would miss and be read and written again.
 */
@Entity({ name: 'server_history_cursors' })
export class ServerHistoryCursorEntity {
  @PrimaryColumn({ name: 'server_id', type: 'uuid' })
  serverId: string;

  @OneToOne(() => ServerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'server_id', foreignKeyConstraintName: 'fk_server_history_cursors_server' })
  server?: ServerEntity;

  /** The history is written up to this instant (a whole second), exclusive. */
  @Column({ name: 'history_until', type: 'timestamptz' })
  historyUntil: Date;
}
