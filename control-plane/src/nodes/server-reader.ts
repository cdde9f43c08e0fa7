import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryPrepared } from '../common/sql';
import type { ServerEntity } from './entities/server.entity';

/** What an agent call needs of its server: credential, tier, address and reliability state. */
export type AgentServer = Pick<
  ServerEntity,
  | 'id'
  | 'tier'
  | 'secretHash'
  | 'host'
  | 'port'
  | 'reliabilityAtReport'
  | 'lastReportAt'
  | 'lastCreditedAt'
  | 'belowThresholdSince'
  | 'bannedAt'
>;

interface AgentServerRow {
  id: string;
  tier: ServerEntity['tier'];
  secret_hash: string | null;
  host: string | null;
  port: number | null;
  reliability_at_report: number;
  last_report_at: number | null;
  last_credited_at: number | null;
  below_threshold_since: number | null;
  banned_at: number | null;
}

/** A timestamp as epoch milliseconds (float8): far cheaper for `pg` to parse than timestamptz text. */
const epochMs = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8 AS ${column}`;
const dateOf = (ms: number | null) => (ms === null ? null : new Date(ms));

const MAX_BATCH = 1000;

/**
 * Reads servers for agent calls in batches: the lookups that arrive while the previous batch is
 * in the database become one `SELECT ... WHERE id = ANY(...)`. Always a fresh read (no cache), so replicas and jobs that
 * changed a server are seen; only the round trips are shared.
 */
@Injectable()
export class ServerReader {
  private pending = new Map<
    string,
    Array<{ resolve: (server: AgentServer | null) => void; reject: (e: unknown) => void }>
  >();
  private inFlight = false;
  private scheduled = false;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  read(id: string): Promise<AgentServer | null> {
    return new Promise((resolve, reject) => {
      const waiters = this.pending.get(id);
      if (waiters) waiters.push({ resolve, reject });
      else this.pending.set(id, [{ resolve, reject }]);
      this.schedule();
    });
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
    try {
      // Only the narrow columns: the jsonb ones (hardware, inbound) would cost parsing per call.
      const rows = await queryPrepared<AgentServerRow>(
        this.dataSource,
        `SELECT id, tier, secret_hash, host, port, reliability_at_report, ${epochMs('last_report_at')},
                ${epochMs('last_credited_at')}, ${epochMs('below_threshold_since')}, ${epochMs('banned_at')}
         FROM servers WHERE id = ANY($1::uuid[])`,
        [[...batch.keys()]],
      );
      const byId = new Map(rows.map((row) => [row.id, agentServerFromRow(row)]));
      for (const [id, waiters] of batch) waiters.forEach((w) => w.resolve(byId.get(id) ?? null));
    } catch (error) {
      for (const waiters of batch.values()) waiters.forEach((w) => w.reject(error));
    } finally {
      this.inFlight = false;
      if (this.pending.size > 0) this.schedule();
    }
  }
}

function agentServerFromRow(row: AgentServerRow): AgentServer {
  return {
    id: row.id,
    tier: row.tier,
    secretHash: row.secret_hash,
    host: row.host,
    port: row.port,
    reliabilityAtReport: row.reliability_at_report,
    lastReportAt: dateOf(row.last_report_at),
    lastCreditedAt: dateOf(row.last_credited_at),
    belowThresholdSince: dateOf(row.below_threshold_since),
    bannedAt: dateOf(row.banned_at),
  };
}
