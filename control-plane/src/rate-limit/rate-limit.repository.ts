import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';
import type { RateLimitRule } from './rate-limit.rules';

export interface BucketCount {
  bucket: string;
  hits: number;
  retryAfterSeconds: number;
}

@Injectable()
export class RateLimitRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Counts one hit in each rule's current window, atomically, and returns the new counts. */
  async hit(rules: readonly RateLimitRule[]): Promise<BucketCount[]> {
    const rows = await queryRows<{
      bucket: string;
      hits: number;
      window_start: number;
      now: number;
    }>(
      this.dataSource,
      `INSERT INTO rate_limit_hits (bucket, window_start, hits)
         SELECT t.bucket, to_timestamp(floor(extract(epoch FROM now()) / t.seconds) * t.seconds), 1
         FROM unnest($1::text[], $2::int[]) AS t(bucket, seconds)
         ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_hits.hits + 1
         RETURNING bucket, hits, extract(epoch FROM window_start)::float8 AS window_start,
                   extract(epoch FROM now())::float8 AS now`,
      [rules.map((r) => r.bucket), rules.map((r) => r.windowSeconds)],
    );
    const windowByBucket = new Map(rules.map((r) => [r.bucket, r.windowSeconds]));
    return rows.map((row) => ({
      bucket: row.bucket,
      hits: row.hits,
      retryAfterSeconds: Math.max(
        1,
        Math.ceil(row.window_start + (windowByBucket.get(row.bucket) ?? 0) - row.now),
      ),
    }));
  }

  /** Windows end after at most a day; older rows are dead weight. Idempotent. */
  async pruneExpired(): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM rate_limit_hits WHERE window_start < now() - interval '1 day'`,
    );
  }
}
