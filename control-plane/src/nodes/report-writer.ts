import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { ServerEntity } from './entities/server.entity';

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
  | 'activeClients'
  | 'pingMs'
  | 'uptimeSeconds'
  | 'appliedClientSetVersion'
>;

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
    const ids = [...batch.keys()];
    const rows = [...batch.values()].map((p) => p.columns);
    const column = <T>(pick: (c: ReportColumns) => T) => rows.map(pick);
    try {
      await this.dataSource.query(
        `UPDATE servers AS s SET
           reliability_at_report = v.reliability, last_report_at = v.last_report_at,
           last_credited_at = v.last_credited_at, below_threshold_since = v.below_since,
           banned_at = v.banned_at, host = v.host, port = v.port, inbound = v.inbound,
           hardware = v.hardware, agent_version = v.agent_version, core_state = v.core_state,
           active_clients = v.active_clients, ping_ms = v.ping_ms, uptime_seconds = v.uptime,
           applied_client_set_version = v.applied_version, updated_at = now()
         FROM unnest($1::uuid[], $2::smallint[], $3::timestamptz[], $4::timestamptz[], $5::timestamptz[],
                     $6::timestamptz[], $7::text[], $8::int[], $9::jsonb[], $10::jsonb[], $11::text[],
                     $12::text[], $13::int[], $14::int[], $15::bigint[], $16::bigint[])
           AS v(id, reliability, last_report_at, last_credited_at, below_since, banned_at, host, port,
                inbound, hardware, agent_version, core_state, active_clients, ping_ms, uptime, applied_version)
         WHERE s.id = v.id`,
        [
          ids,
          column((c) => c.reliabilityAtReport),
          column((c) => c.lastReportAt),
          column((c) => c.lastCreditedAt),
          column((c) => c.belowThresholdSince),
          column((c) => c.bannedAt),
          column((c) => c.host),
          column((c) => c.port),
          column((c) => JSON.stringify(c.inbound)),
          column((c) => (c.hardware === null ? null : JSON.stringify(c.hardware))),
          column((c) => c.agentVersion),
          column((c) => c.coreState),
          column((c) => c.activeClients),
          column((c) => c.pingMs),
          column((c) => c.uptimeSeconds),
          column((c) => c.appliedClientSetVersion),
        ],
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
