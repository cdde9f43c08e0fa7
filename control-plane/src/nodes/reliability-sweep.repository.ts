import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';
import { RELIABILITY, type ReliabilityState } from '../reliability/reliability';

/**
 * The reliability sweep skips servers that reported this long before the staleness threshold:
 * a margin so that rounding or skew can only add candidates (see listServersForSweep).
 */
export const SWEEP_FRESH_MARGIN_MS = 5 * 60_000;

/** A server the sweep reads: its reliability state, id, and row version (`xmin`) as read. */
export interface SweepCandidate extends ReliabilityState {
  id: string;
  /** Moves with every write of the row, as for reports (AgentReportRepository): the sweep's guard. */
  version: string;
}

/** What the sweep writes for one server, with the row version it was computed from. */
export type SweepSettlement = Pick<
  SweepCandidate,
  'id' | 'version' | 'belowThresholdSince' | 'bannedAt'
>;

/** The only DB access of the reliability sweep: its candidates, a page at a time, and its writes. */
@Injectable()
export class ReliabilitySweepRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * One page (keyset on id, after `afterId`) of the servers whose 95%/14-day lifecycle could move
   * at `now`, with only the columns `settleThreshold` reads.
   *
   * Why skipping the others is safe: `settleThreshold` leaves a banned server alone, and leaves a
   * server alone when `below_threshold_since` is null and `currentReliability` is at least
   * `hideBelow`. A server that reported at most `staleAfterMs` ago has lost nothing to staleness
   * (`stalenessPenalty` is 0), so its score is `reliability_at_report` (clamped to 0..100, which
   * keeps a value >= 95 at or above 95); one that never reported scores 0. So a server that is
   * not banned, has no `below_threshold_since`, `reliability_at_report >= hideBelow` and a
   * report within `staleAfterMs` cannot change, and every other unbanned one is a candidate.
   * The report window is narrowed by `SWEEP_FRESH_MARGIN_MS` (never widened), so clock skew or
   * a timestamp rounded between PostgreSQL's microseconds and JavaScript's milliseconds can only
   * add a candidate, never drop one.
   */
  async listServersForSweep(
    now: Date,
    afterId: string | null,
    limit: number,
  ): Promise<SweepCandidate[]> {
    const reportedBefore = new Date(
      now.getTime() - (RELIABILITY.staleAfterMs - SWEEP_FRESH_MARGIN_MS),
    );
    const rows = await queryRows<{
      id: string;
      version: string;
      reliability_at_report: number;
      last_report_at: Date | null;
      last_credited_at: Date | null;
      below_threshold_since: Date | null;
    }>(
      this.dataSource,
      `SELECT id, xmin::text AS version, reliability_at_report, last_report_at,
              last_credited_at, below_threshold_since
       FROM servers
       WHERE banned_at IS NULL AND ($2::uuid IS NULL OR id > $2::uuid)
         AND (below_threshold_since IS NOT NULL OR reliability_at_report < $3
              OR last_report_at IS NULL OR last_report_at < $1)
       ORDER BY id LIMIT $4`,
      [reportedBefore, afterId, RELIABILITY.hideBelow, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      version: row.version,
      reliabilityAtReport: row.reliability_at_report,
      lastReportAt: row.last_report_at,
      lastCreditedAt: row.last_credited_at,
      belowThresholdSince: row.below_threshold_since,
      bannedAt: null,
    }));
  }

  /**
   * Writes what the sweep settled, in one statement: only the lifecycle columns
   * `settleThreshold` can change (and `updated_at`, as `updateServer` does). A server is skipped
   * when its row was written since it was read (a report, a ban by another replica: its `xmin`
   * moved) or while a report batch holds it: the next minute's sweep takes it up again. Rows are locked
   * in id order without waiting, so the sweep cannot deadlock with report batches. Returns how
   * many servers were written.
   */
  async settleServers(settlements: readonly SweepSettlement[]): Promise<number> {
    if (settlements.length === 0) return 0;
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `WITH v AS (
         SELECT * FROM unnest($1::uuid[], $2::xid[], $3::timestamptz[], $4::timestamptz[])
           AS v(id, version, below_since, banned_at)
       ), locked AS (
         SELECT s.id FROM servers s JOIN v ON v.id = s.id
         WHERE s.xmin = v.version
         ORDER BY s.id FOR NO KEY UPDATE OF s SKIP LOCKED
       )
       UPDATE servers AS s SET below_threshold_since = v.below_since, banned_at = v.banned_at,
         updated_at = CURRENT_TIMESTAMP
       FROM v JOIN locked ON locked.id = v.id
       WHERE s.id = v.id AND s.xmin = v.version
       RETURNING s.id`,
      [
        settlements.map((u) => u.id),
        settlements.map((u) => u.version),
        settlements.map((u) => u.belowThresholdSince),
        settlements.map((u) => u.bannedAt),
      ],
    );
    return rows.length;
  }
}
