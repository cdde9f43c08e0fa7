import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryPrepared } from '../common/sql';
import type { ServerEntity } from './entities/server.entity';

/**
 * One report's row change. `hardware` and `activeClients` are null when the report did not give
 * them (no hardware read, client counting failed): the stored values are kept.
 */
export type ReportColumns = Pick<
  ServerEntity,
  | 'reliabilityAtReport'
  | 'lastReportAt'
  | 'lastCreditedAt'
  | 'belowThresholdSince'
  | 'bannedAt'
  | 'host'
  | 'port'
  | 'inbound'
  | 'hardware'
  | 'agentVersion'
  | 'coreState'
  | 'pingMs'
  | 'uptimeSeconds'
  | 'appliedClientSetVersion'
> & { activeClients: number | null };

interface Pending {
  columns: ReportColumns;
  waiters: Array<{ resolve: () => void; reject: (error: unknown) => void }>;
}

/** The most one write carries. */
const MAX_BATCH = 1000;

/**
 * Writes agent reports in batches: the reports that arrive while the previous batch is in the
 * database become one `UPDATE ... FROM unnest(...)`. A report is acknowledged only after its batch committed, so an
 * accepted report is always persisted (bench/ingest: one round trip per report was the limit).
 */
@Injectable()
export class ReportWriter implements OnApplicationShutdown {
  private pending = new Map<string, Pending>();
  private inFlight = false;
  private scheduled = false;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  write(serverId: string, columns: ReportColumns): Promise<void> {
    return new Promise((resolve, reject) => {
      const entry = this.pending.get(serverId);
      // Two reports of one node in one batch: the later one wins, both are acknowledged.
      if (entry) {
        entry.columns = columns;
        entry.waiters.push({ resolve, reject });
      } else {
        this.pending.set(serverId, { columns, waiters: [{ resolve, reject }] });
      }
      this.schedule();
    });
  }

  async onApplicationShutdown(): Promise<void> {
    while (this.inFlight || this.pending.size > 0) {
      if (!this.inFlight) await this.flush();
      else await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * Group commit: with no batch in the database, the next one goes at the end of this tick;
   * otherwise what arrives waits for the running batch and goes with the next. Low load gets
   * no added latency, high load gets large batches.
   */
  private schedule(): void {
    if (this.inFlight && this.pending.size < MAX_BATCH) return;
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    if (batch.size === 0) return;
    this.pending = new Map();
    this.inFlight = true;
    // One JSON document for the whole batch: a single native JSON.stringify instead of sixteen
    // text-escaped arrays (pg's array serialisation was the writer's largest cost).
    const rows = [...batch].map(([id, { columns: c }]) => ({
      id,
      reliability: c.reliabilityAtReport,
      last_report_at: c.lastReportAt,
      last_credited_at: c.lastCreditedAt,
      below_since: c.belowThresholdSince,
      banned_at: c.bannedAt,
      host: c.host,
      port: c.port,
      inbound: c.inbound,
      hardware: c.hardware,
      agent_version: c.agentVersion,
      core_state: c.coreState,
      active_clients: c.activeClients,
      ping_ms: c.pingMs,
      uptime: c.uptimeSeconds,
      applied_version: c.appliedClientSetVersion,
    }));
    try {
      await queryPrepared(
        this.dataSource,
        `UPDATE servers AS s SET
           reliability_at_report = v.reliability, last_report_at = v.last_report_at,
           last_credited_at = v.last_credited_at, below_threshold_since = v.below_since,
           banned_at = v.banned_at, host = v.host, port = v.port, inbound = v.inbound,
           hardware = COALESCE(v.hardware, s.hardware), agent_version = v.agent_version,
           core_state = v.core_state, active_clients = COALESCE(v.active_clients, s.active_clients),
           ping_ms = v.ping_ms, uptime_seconds = v.uptime, applied_client_set_version = v.applied_version,
           updated_at = now()
         FROM json_to_recordset($1::json)
           AS v(id uuid, reliability smallint, last_report_at timestamptz, last_credited_at timestamptz,
                below_since timestamptz, banned_at timestamptz, host text, port int, inbound jsonb,
                hardware jsonb, agent_version text, core_state text, active_clients int, ping_ms int,
                uptime bigint, applied_version bigint)
         WHERE s.id = v.id AND s.id = ANY($2::uuid[])`,
        // The id list again as an array: the planner knows its length (it cannot see into the
        // JSON) and probes the primary key instead of scanning servers for a small batch.
        [JSON.stringify(rows), [...batch.keys()]],
      );
      for (const entry of batch.values()) entry.waiters.forEach((w) => w.resolve());
    } catch (error) {
      for (const entry of batch.values()) entry.waiters.forEach((w) => w.reject(error));
    } finally {
      this.inFlight = false;
      if (this.pending.size > 0) this.schedule();
    }
  }
}
