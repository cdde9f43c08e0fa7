import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';
import type { ReliabilityDayFacts } from './reliability-integral';

/** A server as the history sweep reads it: its reliability state and its cursor as read. */
export interface HistoryCandidate {
  id: string;
  ownerUuid: string;
  tier: string | null;
  createdAt: Date;
  reliabilityAtReport: number;
  lastReportAt: Date | null;
  bannedAt: Date | null;
  /** The cursor as read: the guard of the write (null: the server has no history yet). */
  historyUntil: Date | null;
  /** The day being accumulated in the cursor (null: none). */
  pending: ReliabilityDayFacts | null;
}

/**
 * One server's move of its history: the cursor from the value read to `until`, the days that are
 * over added to the day rows, and the day still going kept in the cursor.
 */
export interface HistoryAdvance {
  serverId: string;
  ownerUuid: string;
  tier: string | null;
  readUntil: Date | null;
  until: Date;
  /** Days to add to server_reliability_days (over, or the server stopped accruing). */
  flush: readonly ReliabilityDayFacts[];
  /** The day still being written, kept in the cursor (null: none). */
  pending: ReliabilityDayFacts | null;
}

/** One server's facts over a period, for the rewards engine. */
export interface ServerPeriodFacts {
  serverId: string;
  /** The owner and tier of the latest day in the period. */
  ownerUuid: string;
  tier: string | null;
  observedSeconds: number;
  /** Sum of reliability (0 to 100) x seconds: the time-weighted average is this / observed. */
  reliabilitySeconds: bigint;
  belowSeconds: number;
}

/** One day of a server's history as the chart shows it. */
export interface ServerHistoryDay {
  day: string;
  observedSeconds: number;
  reliabilitySeconds: number;
  minReliability: number;
  belowSeconds: number;
  staleSeconds: number;
  failedReports: number;
  malformedReports: number;
}

interface PeriodRow {
  server_id: string;
  owner_uuid: string;
  tier: string | null;
  observed: string;
  reliability: string;
  below: string;
}

/**
 * The only DB access of the reliability history: the sweep's reads and writes (a page at a time),
 * pruning, and the readers (the rewards engine's period facts, the dashboard's days).
 */
@Injectable()
export class ReliabilityHistoryRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * One page (keyset on id, after `afterId`) of the servers whose history can move: every server
   * not banned, and a banned one whose history has not reached its ban yet (to the second, as
   * the history is written). Deleted servers have no row (and their cursor went with them).
   */
  async listServersForHistory(afterId: string | null, limit: number): Promise<HistoryCandidate[]> {
    const rows = await queryRows<{
      id: string;
      owner_uuid: string;
      tier: string | null;
      created_at: Date;
      reliability_at_report: number;
      last_report_at: Date | null;
      banned_at: Date | null;
      history_until: Date | null;
      pending_day: string | null;
      pending_observed_seconds: number | null;
      pending_reliability_seconds: string | null;
      pending_below_seconds: number | null;
      pending_stale_seconds: number | null;
      pending_min_reliability: number | null;
    }>(
      this.dataSource,
      `SELECT s.id, s.owner_uuid, s.tier, s.created_at, s.reliability_at_report, s.last_report_at,
              s.banned_at, c.history_until, to_char(c.pending_day, 'YYYY-MM-DD') AS pending_day,
              c.pending_observed_seconds, c.pending_reliability_seconds, c.pending_below_seconds,
              c.pending_stale_seconds, c.pending_min_reliability
       FROM server_directory s LEFT JOIN server_history_cursors c ON c.server_id = s.id
       WHERE ($1::uuid IS NULL OR s.id > $1::uuid)
         AND (s.banned_at IS NULL
              OR COALESCE(c.history_until, s.created_at) < date_trunc('second', s.banned_at)
              OR c.pending_day IS NOT NULL)
       ORDER BY s.id LIMIT $2`,
      [afterId, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      ownerUuid: row.owner_uuid,
      tier: row.tier,
      createdAt: row.created_at,
      reliabilityAtReport: row.reliability_at_report,
      lastReportAt: row.last_report_at,
      bannedAt: row.banned_at,
      historyUntil: row.history_until,
      pending:
        row.pending_day === null
          ? null
          : {
              day: row.pending_day,
              observedSeconds: row.pending_observed_seconds!,
              reliabilitySeconds: Number(row.pending_reliability_seconds),
              belowSeconds: row.pending_below_seconds!,
              staleSeconds: row.pending_stale_seconds!,
              minReliability: row.pending_min_reliability!,
            },
    }));
  }

  /**
   * Writes a page of history in one statement: moves each server's cursor from the value read to
   * its `until` with its pending day (or creates it, when there was none), and adds the finished
   * days of exactly the servers whose cursor moved. A cursor that moved since it was read
   * (another sweep) is left alone with its days, so no interval is counted twice; a crash loses
   * the statement whole, so nothing is counted half. Day rows are written in key order, as the
   * report writer's are, so the two cannot deadlock. Returns how many servers moved.
   */
  async advance(advances: readonly HistoryAdvance[]): Promise<number> {
    if (advances.length === 0) return 0;
    // Two JSON documents, timestamps as epoch milliseconds (whole seconds here): pg's
    // serialisation of a dozen arrays, dates above all, cost more than the statement itself.
    const moves = JSON.stringify(
      advances.map((a) => ({
        server_id: a.serverId,
        read_ms: a.readUntil?.getTime() ?? null,
        until_ms: a.until.getTime(),
        owner_uuid: a.ownerUuid,
        tier: a.tier,
        ...pendingJson(a.pending),
      })),
    );
    const days = JSON.stringify(
      advances.flatMap((a) =>
        a.flush.map((d) => ({
          server_id: a.serverId,
          day: d.day,
          owner_uuid: a.ownerUuid,
          tier: a.tier,
          observed: d.observedSeconds,
          reliability: d.reliabilitySeconds,
          below: d.belowSeconds,
          stale: d.staleSeconds,
          min: d.minReliability,
        })),
      ),
    );
    const [row] = await queryRows<{ moved: number }>(
      this.dataSource,
      `WITH v AS (
         SELECT j.*, to_timestamp(read_ms / 1000) AS read_until, to_timestamp(until_ms / 1000) AS until
         FROM json_to_recordset($1::json) AS j(server_id uuid, read_ms float8, until_ms float8,
           owner_uuid uuid, tier varchar, p_day date, p_observed int, p_reliability bigint,
           p_below int, p_stale int, p_min smallint)
       ), locked AS (
         SELECT c.server_id FROM server_history_cursors c JOIN v ON v.server_id = c.server_id
         WHERE c.history_until = v.read_until
         ORDER BY c.server_id FOR UPDATE OF c
       ), moved AS (
         UPDATE server_history_cursors AS c SET history_until = v.until, owner_uuid = v.owner_uuid,
           tier = v.tier, pending_day = v.p_day, pending_observed_seconds = v.p_observed,
           pending_reliability_seconds = v.p_reliability, pending_below_seconds = v.p_below,
           pending_stale_seconds = v.p_stale, pending_min_reliability = v.p_min
         FROM v JOIN locked ON locked.server_id = v.server_id
         WHERE c.server_id = v.server_id AND c.history_until = v.read_until
         RETURNING c.server_id
       ), started AS (
         INSERT INTO server_history_cursors (server_id, history_until, owner_uuid, tier,
           pending_day, pending_observed_seconds, pending_reliability_seconds,
           pending_below_seconds, pending_stale_seconds, pending_min_reliability)
         SELECT v.server_id, v.until, v.owner_uuid, v.tier, v.p_day, v.p_observed,
                v.p_reliability, v.p_below, v.p_stale, v.p_min
         FROM v WHERE v.read_until IS NULL
         ORDER BY v.server_id
         ON CONFLICT (server_id) DO NOTHING
         RETURNING server_id
       ), written AS (
         SELECT server_id FROM moved UNION ALL SELECT server_id FROM started
       ), days AS (
         INSERT INTO server_reliability_days AS t (server_id, day, owner_uuid, tier,
           observed_seconds, reliability_seconds, below_seconds, stale_seconds, min_reliability)
         SELECT d.* FROM json_to_recordset($2::json) AS d(server_id uuid, day date,
             owner_uuid uuid, tier varchar, observed int, reliability bigint, below int,
             stale int, min smallint)
         WHERE d.server_id IN (SELECT server_id FROM written)
         ORDER BY d.server_id, d.day
         ${ADD_TO_DAY}
         RETURNING 1
       )
       SELECT (SELECT count(*) FROM written)::int AS moved, (SELECT count(*) FROM days) AS days`,
      [moves, days],
    );
    return row?.moved ?? 0;
  }

  /**
   * Deleted servers: adds each one's pending day to its day row and drops its cursor, in one
   * statement (the days stay, with the owner and tier the cursor kept). Returns how many.
   */
  async flushDeleted(): Promise<number> {
    const [row] = await queryRows<{ n: number }>(
      this.dataSource,
      `WITH gone AS (
         DELETE FROM server_history_cursors c
         WHERE NOT EXISTS (SELECT 1 FROM server_directory s WHERE s.id = c.server_id)
         RETURNING c.*
       ), days AS (
         INSERT INTO server_reliability_days AS t (server_id, day, owner_uuid, tier,
           observed_seconds, reliability_seconds, below_seconds, stale_seconds, min_reliability)
         SELECT server_id, pending_day, owner_uuid, tier, pending_observed_seconds,
                pending_reliability_seconds, pending_below_seconds, pending_stale_seconds,
                pending_min_reliability
         FROM gone WHERE pending_day IS NOT NULL
         ORDER BY server_id
         ${ADD_TO_DAY}
       )
       SELECT count(*)::int AS n FROM gone`,
    );
    return row?.n ?? 0;
  }

  /** Deletes the days before `day` (YYYY-MM-DD); returns how many. */
  async pruneBefore(day: string): Promise<number> {
    const rows = await queryRows<{ n: number }>(
      this.dataSource,
      `WITH gone AS (DELETE FROM server_reliability_days WHERE day < $1::date RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [day],
    );
    return rows[0]?.n ?? 0;
  }

  /**
   * Every server's facts over the UTC days `[from, to)`, in one set-based aggregate (servers
   * deleted since included: their days stay), the days still accumulating included. `from` and
   * `to` are UTC midnights.
   */
  async periodFacts(from: Date, to: Date): Promise<ServerPeriodFacts[]> {
    const rows = await queryRows<PeriodRow>(this.dataSource, `${PERIOD_FACTS} GROUP BY server_id`, [
      utcDay(from),
      utcDay(to),
      null,
    ]);
    return rows.map(periodFactsOf);
  }

  /** One server's facts over the UTC days `[from, to)`; null when it has no day there. */
  async serverPeriodFacts(
    serverId: string,
    from: Date,
    to: Date,
  ): Promise<ServerPeriodFacts | null> {
    const [row] = await queryRows<PeriodRow>(
      this.dataSource,
      `${PERIOD_FACTS} GROUP BY server_id`,
      [utcDay(from), utcDay(to), serverId],
    );
    return row ? periodFactsOf(row) : null;
  }

  /** A server's days from `fromDay` (YYYY-MM-DD) on with observed time, oldest first. */
  async serverDays(serverId: string, fromDay: string): Promise<ServerHistoryDay[]> {
    const rows = await queryRows<{
      day: string;
      observed_seconds: number;
      reliability_seconds: string;
      min_reliability: number;
      below_seconds: number;
      stale_seconds: number;
      failed_reports: number;
      malformed_reports: number;
    }>(
      this.dataSource,
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(observed_seconds)::int AS observed_seconds,
              sum(reliability_seconds)::text AS reliability_seconds,
              min(min_reliability) AS min_reliability, sum(below_seconds)::int AS below_seconds,
              sum(stale_seconds)::int AS stale_seconds, sum(failed_reports)::int AS failed_reports,
              sum(malformed_reports)::int AS malformed_reports
       FROM (${HISTORY_DAYS}) AS d
       WHERE server_id = $3 AND day >= $1::date AND day < $2::date
       GROUP BY day HAVING sum(observed_seconds) > 0
       ORDER BY day`,
      [fromDay, 'infinity', serverId],
    );
    return rows.map((row) => ({
      day: row.day,
      observedSeconds: row.observed_seconds,
      reliabilitySeconds: Number(row.reliability_seconds),
      minReliability: row.min_reliability,
      belowSeconds: row.below_seconds,
      staleSeconds: row.stale_seconds,
      failedReports: row.failed_reports,
      malformedReports: row.malformed_reports,
    }));
  }
}

/** Adds a day's figures to its row (the sweep's finished days, a deleted server's last one). */
const ADD_TO_DAY = `ON CONFLICT (server_id, day) DO UPDATE SET
           owner_uuid = excluded.owner_uuid, tier = excluded.tier,
           observed_seconds = t.observed_seconds + excluded.observed_seconds,
           reliability_seconds = t.reliability_seconds + excluded.reliability_seconds,
           below_seconds = t.below_seconds + excluded.below_seconds,
           stale_seconds = t.stale_seconds + excluded.stale_seconds,
           min_reliability = LEAST(t.min_reliability, excluded.min_reliability)`;

/**
 * Every day of the history: the day rows and the days still accumulating in the cursors, in the
 * rows' columns ($1, $2: the day range; $3: one server, or null for all). A day can appear in
 * both (the report writer's counts, the sweep's pending time): readers sum by server and day.
 */
/**
 * Every day row of the history between two UTC days (`[from, to)`, the SQL parameters named),
 * finished or still pending in a server's cursor: what any reader of a period sums (the
 * dashboard's chart, the rewards engine's facts), so none misses the day in progress.
 */
export function historyDaysSql(from: string, to: string, serverFilter = 'true'): string {
  return `
  SELECT server_id, day, owner_uuid, tier, observed_seconds, reliability_seconds, below_seconds,
         stale_seconds, failed_reports, malformed_reports, min_reliability
  FROM server_reliability_days
  WHERE day >= ${from}::date AND day < ${to}::date AND ${serverFilter}
  UNION ALL
  SELECT server_id, pending_day, owner_uuid, tier, pending_observed_seconds,
         pending_reliability_seconds, pending_below_seconds, pending_stale_seconds, 0, 0,
         pending_min_reliability
  FROM server_history_cursors
  WHERE pending_day >= ${from}::date AND pending_day < ${to}::date AND ${serverFilter}`;
}

const HISTORY_DAYS = historyDaysSql('$1', '$2', '($3::uuid IS NULL OR server_id = $3::uuid)');

/** Sums per server; owner and tier are those of the server's latest day in the period. */
const PERIOD_FACTS = `
  SELECT server_id,
         (array_agg(owner_uuid ORDER BY day DESC))[1] AS owner_uuid,
         (array_agg(tier ORDER BY day DESC))[1] AS tier,
         sum(observed_seconds)::text AS observed,
         sum(reliability_seconds)::text AS reliability,
         sum(below_seconds)::text AS below
  FROM (${HISTORY_DAYS}) AS d`;

/** A pending day as the advance statement's JSON columns (all null: none). */
function pendingJson(pending: ReliabilityDayFacts | null) {
  return {
    p_day: pending?.day ?? null,
    p_observed: pending?.observedSeconds ?? 0,
    p_reliability: pending?.reliabilitySeconds ?? 0,
    p_below: pending?.belowSeconds ?? 0,
    p_stale: pending?.staleSeconds ?? 0,
    p_min: pending?.minReliability ?? 100,
  };
}

function periodFactsOf(row: PeriodRow): ServerPeriodFacts {
  return {
    serverId: row.server_id,
    ownerUuid: row.owner_uuid,
    tier: row.tier,
    observedSeconds: Number(row.observed),
    reliabilitySeconds: BigInt(row.reliability),
    belowSeconds: Number(row.below),
  };
}

/** A UTC midnight as `YYYY-MM-DD` (what the `day` column holds). */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}
