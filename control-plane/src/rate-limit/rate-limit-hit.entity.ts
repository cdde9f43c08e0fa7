import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A fixed-window counter. Kept in PostgreSQL so every replica sees the same count. */
@Entity({ name: 'rate_limit_hits' })
export class RateLimitHitEntity {
  @PrimaryColumn({ type: 'varchar', length: 300 })
  bucket: string;

  @PrimaryColumn({ name: 'window_start', type: 'timestamptz' })
  windowStart: Date;

  @Column({ type: 'int' })
  hits: number;
}
