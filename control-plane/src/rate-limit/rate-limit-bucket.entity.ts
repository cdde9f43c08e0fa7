import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A sliding-window log: the instants of the requests a bucket admitted within its window. Kept in
 * PostgreSQL so every replica sees the same log; written only by `rate_limit_take()`.
 */
@Entity({ name: 'rate_limit_buckets' })
export class RateLimitBucketEntity {
  @PrimaryColumn({ type: 'varchar', length: 300 })
  bucket: string;

  @Column({ type: 'timestamptz', array: true })
  hits: Date[];

  /** When the newest hit leaves the window: the row is dead weight after this. */
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
