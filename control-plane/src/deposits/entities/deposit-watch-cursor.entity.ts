import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * How far the deposit watcher has read the chain (docs/deposits.md#watching): the newest slot
 * whose block it has scanned for transfers to deposit addresses. Shared by every replica, so a
 * restart (or another replica) resumes where the last run stopped.
 */
@Entity({ name: 'deposit_watch_cursor' })
export class DepositWatchCursorEntity {
  /** One row per chain reader ('blocks'). */
  @PrimaryColumn({ type: 'varchar', length: 16 })
  name: string;

  @Column({ type: 'bigint' })
  slot: string;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
