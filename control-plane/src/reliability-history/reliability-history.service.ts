import { Injectable } from '@nestjs/common';
import type { ReliabilityDay } from '@scn/proto';
import { toReliabilityDay } from './reliability-history-view';
import {
  type HistoryAdvance,
  type HistoryCandidate,
  ReliabilityHistoryRepository,
  utcDay,
} from './reliability-history.repository';
import {
  DAY_SECONDS,
  integrateReliability,
  type ReliabilityDayFacts,
} from './reliability-integral';

const DAY_MS = DAY_SECONDS * 1000;
/**
 * Servers the history sweep reads, and writes in one statement, at a time. Small enough that a
 * page's work in the event loop stays short: at 100,000 servers, pages of 5,000 held the cached
 * market's p99 at about 100 ms while the sweep ran, pages of 1,000 at about 60 (docs/benchmarks-log.md).
 */
export const HISTORY_PAGE_SIZE = 1_000;
/**
 * Days kept (docs/economics.md "Reliability history"): a 12-month reward cycle with a month to
 * spare, so any statement of the past year can still be computed, and at most this many rows a
 * server.
 */
export const HISTORY_RETENTION_DAYS = 400;
/**
 * At most this much of one server's history is written per run: a server that has none yet, or
 * after an outage of every replica, catches up a month a minute instead of writing a year of rows
 * in one statement.
 */
export const HISTORY_MAX_SPAN_MS = 31 * DAY_MS;

/**
 * Writes each server's reliability history: from where it was written up to now,
 * the score the server's state gives (reliability-integral.ts), per UTC day, for every server
 * not banned (a banned one up to its ban). The day still going accumulates in the server's
 * cursor and goes to the day rows when it is over (ServerHistoryCursorEntity says why).
 *
 * The bound of the approximation: a report changes the state at its instant, but the history is
 * written once a run (a minute) with the state read then; so the seconds between the previous
 * run and a report are counted with the score after the report, not before. Per report that is
 * at most one run's interval (60 s while the sweep runs every minute) at a score off by the
 * report's change (+2, -5, -10, or the staleness the report ends); staleness between reports is
 * exact, whenever the sweep runs. Integrating up to each report in the report writer would be
 * exact but adds a day-row write to every report (ingest's hot path), for a difference of at
 * most 10 points x 60 s per report: below 0.7% of a day's reliability-seconds for a report, and
 * 0 for the ok reports of a server at 100.
 */
@Injectable()
export class ReliabilityHistoryService {
  /** The last retention cutoff this process pruned to: pruning runs once a day, not a minute. */
  private prunedBefore: string | null = null;

  constructor(private readonly repository: ReliabilityHistoryRepository) {}

  /**
   * Writes every server's history up to `now` (rounded down to the second), a page at a time, each
   * page in one statement. Idempotent per instant: a second run, or a run of another replica at
   * once, finds the cursors moved and writes nothing twice. Returns how many servers moved.
   */
  async writeUntil(now: Date, pageSize = HISTORY_PAGE_SIZE): Promise<number> {
    const until = Math.floor(now.getTime() / 1000) * 1000;
    const keptFrom = Date.parse(retentionCutoff(now));
    let moved = 0;
    let afterId: string | null = null;
    for (;;) {
      const page = await this.repository.listServersForHistory(afterId, pageSize);
      const advances: HistoryAdvance[] = [];
      for (const server of page) {
        const advance = advanceOf(server, until, keptFrom);
        if (advance) advances.push(advance);
      }
      moved += await this.repository.advance(advances);
      const last = page[page.length - 1];
      if (!last || page.length < pageSize) break;
      afterId = last.id;
    }
    // Deleted servers' last days, kept in their cursors meanwhile, go to the day rows.
    await this.repository.flushDeleted();
    return moved;
  }

  /**
   * A server's last `days` UTC days up to `now`'s (today included), oldest first; days without
   * observed time are absent. The caller has checked the server is the operator's.
   */
  async recentDays(
    serverId: string,
    days: number,
    now: Date,
  ): Promise<{ from: string; to: string; days: ReliabilityDay[] }> {
    const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
    const from = utcDay(new Date(today - (days - 1) * DAY_MS));
    const rows = await this.repository.serverDays(serverId, from);
    return { from, to: utcDay(new Date(today)), days: rows.map(toReliabilityDay) };
  }

  /**
   * Deletes the days older than the retention (HISTORY_RETENTION_DAYS), once per UTC day per
   * process. Returns how many rows went (0 when it already pruned today).
   */
  async prune(now: Date): Promise<number> {
    const cutoff = retentionCutoff(now);
    if (this.prunedBefore === cutoff) return 0;
    const pruned = await this.repository.pruneBefore(cutoff);
    this.prunedBefore = cutoff;
    return pruned;
  }
}

/** The first day kept at `now`. */
export function retentionCutoff(now: Date): string {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return utcDay(new Date(today - (HISTORY_RETENTION_DAYS - 1) * DAY_MS));
}

/** What the sweep writes for one server up to `until` (ms, a whole second); null: nothing. */
function advanceOf(
  server: HistoryCandidate,
  until: number,
  keptFrom: number,
): HistoryAdvance | null {
  const written = (server.historyUntil ?? server.createdAt).getTime();
  // Days older than the retention would be pruned at once: a server new to the history starts
  // within it.
  const from = Math.max(Math.floor(written / 1000) * 1000, keptFrom);
  let to = Math.min(until, from + HISTORY_MAX_SPAN_MS);
  // A banned server stops accruing at its ban: its last day is over then.
  const stops = server.bannedAt !== null;
  if (server.bannedAt) to = Math.min(to, Math.floor(server.bannedAt.getTime() / 1000) * 1000);
  const days =
    to > from
      ? integrateReliability(
          {
            reliabilityAtReport: server.reliabilityAtReport,
            lastReportAt: server.lastReportAt,
            lastCreditedAt: null,
            belowThresholdSince: null,
            bannedAt: server.bannedAt,
          },
          new Date(from),
          new Date(to),
        )
      : [];
  // Nothing to add, and nothing pending to move to the day rows.
  if (days.length === 0 && !(stops && server.pending)) return null;
  const all = withPending(server.pending, days);
  // The last day is still being written unless the server stopped accruing.
  const pending = stops ? null : all[all.length - 1]!;
  return {
    serverId: server.id,
    ownerUuid: server.ownerUuid,
    tier: server.tier,
    readUntil: server.historyUntil,
    until: new Date(Math.max(to, written)),
    flush: stops ? all : all.slice(0, -1),
    pending,
  };
}

/** The pending day followed by the new days, the pending one merged into its day if it goes on. */
function withPending(
  pending: ReliabilityDayFacts | null,
  days: readonly ReliabilityDayFacts[],
): ReliabilityDayFacts[] {
  if (!pending) return [...days];
  const [first, ...rest] = days;
  if (!first || first.day !== pending.day) return [pending, ...days];
  return [
    {
      day: first.day,
      observedSeconds: pending.observedSeconds + first.observedSeconds,
      reliabilitySeconds: pending.reliabilitySeconds + first.reliabilitySeconds,
      belowSeconds: pending.belowSeconds + first.belowSeconds,
      staleSeconds: pending.staleSeconds + first.staleSeconds,
      minReliability: Math.min(pending.minReliability, first.minReliability),
    },
    ...rest,
  ];
}
