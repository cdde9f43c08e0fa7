import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ServerTrafficDay, SubscriptionTrafficDay, TrafficBytes } from '@scn/proto';
import type { DataSource } from 'typeorm';
import { queryPrepared, queryRows } from '../common/sql';

const DAY_MS = 86_400_000;

/**
 * Days of traffic kept (docs/api.md "Traffic"): a year of charts and totals with a month to
 * spare, and at most this many rows per subscription and server.
 */
export const TRAFFIC_RETENTION_DAYS = 400;

/** `YYYY-MM-DD` (UTC) of `date`. */
export function trafficDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The first day kept at `now`. */
export function trafficRetentionCutoff(now: Date): string {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return trafficDay(new Date(today - (TRAFFIC_RETENTION_DAYS - 1) * DAY_MS));
}

/** The last `days` UTC days up to `now`'s, as [from, to]. */
export function recentWindow(days: number, now: Date): { from: string; to: string } {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return { from: trafficDay(new Date(today - (days - 1) * DAY_MS)), to: trafficDay(now) };
}

/**
 * Reads of subscription_traffic_days, which the report writer fills
 * (agent-reports/agent-report.repository.ts), and its pruning.
 */
@Injectable()
export class TrafficRepository {
  /** The last cutoff this process pruned to: pruning runs once per UTC day, not every sweep. */
  private prunedBefore: string | null = null;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * A subscription's bytes over every day kept: the subscription URL's `subscription-userinfo`.
   * An index range of the primary key (at most servers x 400 rows).
   */
  async totalOf(subscriptionId: string): Promise<TrafficBytes> {
    const rows = await queryPrepared<{ up: string; down: string }>(
      this.dataSource,
      `SELECT COALESCE(sum(upload_bytes), 0)::text AS up, COALESCE(sum(download_bytes), 0)::text AS down
       FROM subscription_traffic_days WHERE subscription_id = $1`,
      [subscriptionId],
    );
    return { uploadBytes: rows[0]?.up ?? '0', downloadBytes: rows[0]?.down ?? '0' };
  }

  /** Whether `ownerUuid` owns the subscription (deleted ones are not found). */
  async ownsSubscription(ownerUuid: string, subscriptionId: string): Promise<boolean> {
    const rows = await queryRows<{ one: number }>(
      this.dataSource,
      `SELECT 1 AS one FROM subscription_directory WHERE id = $1 AND owner_uuid = $2 AND status <> 'deleted'`,
      [subscriptionId, ownerUuid],
    );
    return rows.length > 0;
  }

  /** A subscription's days in [from, to], per server, by day then server. */
  async subscriptionDays(
    subscriptionId: string,
    from: string,
    to: string,
  ): Promise<SubscriptionTrafficDay[]> {
    const rows = await queryRows<{ day: string; server_id: string; up: string; down: string }>(
      this.dataSource,
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, server_id, upload_bytes::text AS up,
              download_bytes::text AS down
       FROM subscription_traffic_days
       WHERE subscription_id = $1 AND day BETWEEN $2::date AND $3::date
       ORDER BY day, server_id`,
      [subscriptionId, from, to],
    );
    return rows.map((r) => ({
      date: r.day,
      serverId: r.server_id,
      uploadBytes: r.up,
      downloadBytes: r.down,
    }));
  }

  /** A server's days in [from, to], its subscriptions added up, oldest first. */
  async serverDays(serverId: string, from: string, to: string): Promise<ServerTrafficDay[]> {
    const rows = await queryRows<{ day: string; up: string; down: string; n: number }>(
      this.dataSource,
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(upload_bytes)::text AS up,
              sum(download_bytes)::text AS down, count(*)::int AS n
       FROM subscription_traffic_days
       WHERE server_id = $1 AND day BETWEEN $2::date AND $3::date
       GROUP BY day ORDER BY day`,
      [serverId, from, to],
    );
    return rows.map((r) => ({
      date: r.day,
      uploadBytes: r.up,
      downloadBytes: r.down,
      subscriptions: r.n,
    }));
  }

  /**
   * Deletes the days older than TRAFFIC_RETENTION_DAYS, once per UTC day per process (the
   * reliability sweep calls it every minute). Returns how many rows went.
   */
  async prune(now: Date): Promise<number> {
    const cutoff = trafficRetentionCutoff(now);
    if (this.prunedBefore === cutoff) return 0;
    const rows = await queryRows<{ n: number }>(
      this.dataSource,
      `WITH gone AS (DELETE FROM subscription_traffic_days WHERE day < $1::date RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [cutoff],
    );
    this.prunedBefore = cutoff;
    return rows[0]?.n ?? 0;
  }
}

/** Adds byte counts given as decimal strings (exact: BigInt). */
export function addBytes(days: readonly TrafficBytes[]): TrafficBytes {
  let up = 0n;
  let down = 0n;
  for (const d of days) {
    up += BigInt(d.uploadBytes);
    down += BigInt(d.downloadBytes);
  }
  return { uploadBytes: up.toString(), downloadBytes: down.toString() };
}
