import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';
import type { RateLimitRule } from './rate-limit.rules';

export interface Refusal {
  bucket: string;
  /** Until the bucket's oldest counted request leaves its window. */
  retryAfterMs: number;
}

@Injectable()
export class RateLimitRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * One statement: records the request at `at` in every rule's bucket if all of them have room,
   * else records nothing and names the full ones (rate-limit/sql/rate_limit_take.sql).
   */
  async take(rules: readonly RateLimitRule[], at: Date): Promise<Refusal[]> {
    const rows = await queryRows<{ refused_bucket: string; retry_after_ms: string }>(
      this.dataSource,
      `SELECT refused_bucket, retry_after_ms FROM rate_limit_take($1::text[], $2::int[], $3::bigint[], $4)`,
      [
        rules.map((r) => r.bucket),
        rules.map((r) => r.limit),
        rules.map((r) => r.windowSeconds * 1000),
        at,
      ],
    );
    return rows.map((row) => ({
      bucket: row.refused_bucket,
      retryAfterMs: Number(row.retry_after_ms),
    }));
  }

  /** Gives back the slot a request took at `at` in each bucket (one occurrence, if still there). */
  async giveBack(buckets: readonly string[], at: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE rate_limit_buckets
          SET hits = hits[:array_position(hits, $2) - 1] || hits[array_position(hits, $2) + 1:]
        WHERE bucket = ANY($1::text[]) AND array_position(hits, $2) IS NOT NULL`,
      [buckets, at],
    );
  }

  /** Buckets whose every hit has left its window are dead weight. Idempotent. */
  async pruneExpired(now: Date): Promise<void> {
    await this.dataSource.query(`DELETE FROM rate_limit_buckets WHERE expires_at < $1`, [now]);
  }
}
