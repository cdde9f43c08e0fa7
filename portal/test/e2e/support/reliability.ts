import type { Stack } from './stack';

/** A day of a server's reliability history as a fixture gives it (figures the sweep would write). */
export interface HistoryDay {
  /** Days before today (UTC): 0 is today. */
  daysAgo: number;
  /** Time-weighted average over the whole day. */
  average: number;
  min?: number;
  belowSeconds?: number;
  staleSeconds?: number;
  failedReports?: number;
  malformedReports?: number;
}

/**
 * Test fixture: writes days of a server's reliability history (server_reliability_days) as the
 * reliability sweep and the report writer would have written them, since the browser stack runs
 * the control plane on the real clock (a day of history would take a day). Facts for the chart,
 * not money: nothing here touches the ledger. Each day is a whole observed day (86,400 s).
 * The writers themselves are tested in the control plane (reliability-history db-spec, e2e).
 */
export async function insertHistoryDays(
  stack: Stack,
  server: { id: string; ownerUuid: string; tier: string },
  days: readonly HistoryDay[],
): Promise<void> {
  for (const day of days) {
    await stack.db.query(
      `INSERT INTO server_reliability_days (server_id, day, owner_uuid, tier, observed_seconds,
         reliability_seconds, below_seconds, stale_seconds, failed_reports, malformed_reports,
         min_reliability)
       VALUES ($1, (now() AT TIME ZONE 'UTC')::date - $4::int, $2, $3, 86400, $5, $6, $7, $8, $9, $10)`,
      [
        server.id,
        server.ownerUuid,
        server.tier,
        day.daysAgo,
        Math.round(day.average * 86_400),
        day.belowSeconds ?? 0,
        day.staleSeconds ?? 0,
        day.failedReports ?? 0,
        day.malformedReports ?? 0,
        day.min ?? Math.floor(day.average),
      ],
    );
  }
}
