import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { KeyedBatcher } from '../common/keyed-batcher';
import { queryPrepared } from '../common/sql';
import type { ServerEntity } from './entities/server.entity';

/**
 * What an agent call needs of its server: credential, tier, address and reliability state, and
 * the row version it was read at (PostgreSQL's `xmin`, which every update of the row changes).
 * `secretDigest` is the stored `secret_hash` as bytes, decoded once per read rather than per call.
 */
export type AgentServer = Pick<
  ServerEntity,
  | 'id'
  | 'tier'
  | 'host'
  | 'port'
  | 'hostName'
  | 'reliabilityAtReport'
  | 'lastReportAt'
  | 'lastCreditedAt'
  | 'belowThresholdSince'
  | 'bannedAt'
> & { version: string; secretDigest: Buffer | null };

interface AgentServerRow {
  id: string;
  version: string;
  tier: ServerEntity['tier'];
  secret_hash: string | null;
  host: string | null;
  port: number | null;
  host_name: string | null;
  reliability_at_report: number;
  last_report_at: number | null;
  last_credited_at: number | null;
  below_threshold_since: number | null;
  banned_at: number | null;
}

/** A timestamp as epoch milliseconds (float8): far cheaper for `pg` to parse than timestamptz text. */
const epochMs = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8 AS ${column}`;
const dateOf = (ms: number | null) => (ms === null ? null : new Date(ms));

/**
 * Servers remembered per process (about 450 bytes each: 135 MB at the limit). Nodes report in a
 * cycle, so with more nodes than this on one replica the oldest would always be gone before its
 * next report (every report then reads, as without the cache): sized for the 300,000 nodes the
 * ingest target names; the least recently written go first.
 */
const MAX_REMEMBERED = 300_000;

/**
 * The agent calls' repository of their servers. A report normally needs no read: the server as this process last
 * wrote it is remembered with its row version, and the report's write only applies if the row
 * is still at that version (AgentReportRepository), so a change by anyone else (another replica, the
 * sweep, a purchase, the dashboard, a deletion) makes the write miss and the report is read
 * again and re-applied. Other reads go to the database, in batches: the lookups that arrive
 * while a batch is in the database become one `SELECT ... WHERE id = ANY(...)`.
 */
@Injectable()
export class AgentServerRepository {
  private readonly remembered = new Map<string, AgentServer>();
  private readonly batcher: KeyedBatcher<null, AgentServer | null>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.batcher = new KeyedBatcher((batch) => this.readBatch([...batch.keys()]), null);
  }

  /** The server as this process last wrote it, if it remembers it (no database access). */
  recall(id: string): AgentServer | undefined {
    return this.remembered.get(id);
  }

  /** The server as it is in the database now (and remembered from then on). */
  async read(id: string): Promise<AgentServer | null> {
    const server = await this.batcher.submit(id, null);
    if (server) this.remember(server);
    else this.forget(id);
    return server;
  }

  /** The server as it is now in the database, at `server.version` (after a write of ours). */
  remember(server: AgentServer): void {
    this.remembered.delete(server.id);
    this.remembered.set(server.id, server);
    if (this.remembered.size > MAX_REMEMBERED) {
      this.remembered.delete(this.remembered.keys().next().value!);
    }
  }

  forget(id: string): void {
    this.remembered.delete(id);
  }

  /**
   * Gives an agent server without a DNS label (enrolled by a replica from before names) the one
   * offered; false when it had one already. The row changes: the caller reads it again.
   */
  async assignHostName(id: string, hostName: string): Promise<boolean> {
    const rows = await queryPrepared<{ id: string }>(
      this.dataSource,
      `UPDATE servers SET host_name = $2
       WHERE id = $1 AND host_name IS NULL AND source = 'agent' RETURNING id`,
      [id, hostName],
    );
    this.forget(id);
    return rows.length > 0;
  }

  private async readBatch(ids: string[]): Promise<Map<string, AgentServer>> {
    // Only the narrow columns: the jsonb ones (hardware, inbound) would cost parsing per call.
    const rows = await queryPrepared<AgentServerRow>(
      this.dataSource,
      `SELECT id, xmin::text AS version, tier, secret_hash, host, port, host_name, reliability_at_report,
              ${epochMs('last_report_at')}, ${epochMs('last_credited_at')},
              ${epochMs('below_threshold_since')}, ${epochMs('banned_at')}
       FROM servers WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    return new Map(rows.map((row) => [row.id, agentServerFromRow(row)]));
  }
}

function agentServerFromRow(row: AgentServerRow): AgentServer {
  return {
    id: row.id,
    version: row.version,
    tier: row.tier,
    secretDigest: row.secret_hash === null ? null : Buffer.from(row.secret_hash, 'hex'),
    host: row.host,
    port: row.port,
    hostName: row.host_name,
    reliabilityAtReport: row.reliability_at_report,
    lastReportAt: dateOf(row.last_report_at),
    lastCreditedAt: dateOf(row.last_credited_at),
    belowThresholdSince: dateOf(row.below_threshold_since),
    bannedAt: dateOf(row.banned_at),
  };
}
