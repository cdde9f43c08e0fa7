import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { KeyFailure, KeyedBatcher } from '../common/keyed-batcher';
import { queryPrepared, sqlState } from '../common/sql';
import type { ServerEntity } from '../nodes/entities/server.entity';
import { hardwareSinceSql } from '../staking/hardware-age';
import type { ReportQuality } from '../reliability/reliability';

/**
 * One report's row change. `hardware`, `activeClients` and `pingMs` are null when the report did
 * not give them (no hardware read, client counting failed, no round trip measured yet): the
 * stored values are kept.
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
  | 'uptimeSeconds'
  | 'appliedClientSetVersion'
> & {
  activeClients: number | null;
  pingMs: number | null;
  /**
   * The certificate PEM the report carries; null when it sent none: the stored one is kept while
   * the reported certificate hash is the one stored with it, and dropped otherwise.
   */
  certificatePem: string | null;
};

/**
 * One report's row for `json_to_recordset`, serialised when the report is submitted: that work is
 * then done while the previous batch is in the database, not between its answer and the next
 * batch (the writer's one-at-a-time cycle is what limits how many reports it stores).
 */
type ReportRowJson = string;

/**
 * A report as the batch carries it. `counted`: its quality is a drop the history counts per day
 * (a failed client count, a malformed report), so the batch's statement also
 * upserts a day row; rare, so the usual batch keeps the plain statement.
 */
interface ReportRow {
  json: ReportRowJson;
  counted: boolean;
  /** The report carries client traffic that moved: the batch adds it up too. */
  traffic: boolean;
}

/**
 * One client's traffic since the agent's previous accepted report: the node agent sends deltas
 * (node-agent/src/reporter/reporter.ts reads the core's cumulative counters and sends their
 * movement, a counter that went down — a core restart — counting from 0), as decimal uint64
 * strings.
 */
export interface ClientTrafficDelta {
  clientUuid: string;
  uplinkBytes: string;
  downlinkBytes: string;
}

function reportRowJson(
  id: string,
  version: string,
  c: ReportColumns,
  quality: ReportQuality,
  traffic: readonly ClientTrafficDelta[],
  trafficBatchId: string,
): ReportRowJson {
  // Timestamps go as epoch milliseconds: cheaper to write and for PostgreSQL to read than ISO text.
  return JSON.stringify({
    id,
    // The row version (`xmin`) the report was computed from.
    version,
    reliability: c.reliabilityAtReport,
    last_report_at: epochMs(c.lastReportAt),
    last_credited_at: epochMs(c.lastCreditedAt),
    below_since: epochMs(c.belowThresholdSince),
    banned_at: epochMs(c.bannedAt),
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
    certificate_pem: c.certificatePem,
    // Only the drops: an ok report's JSON stays as it was.
    ...(quality === 'ok' ? {} : { quality }),
    // Only the clients whose counters moved, as [uuid, up, down] (the bytes stay strings: uint64),
    // and the batch they belong to ('' from older agents: left out).
    ...(traffic.length === 0
      ? {}
      : {
          traffic: traffic.map((t) => [t.clientUuid, t.uplinkBytes, t.downlinkBytes]),
          ...(trafficBatchId === '' ? {} : { batch: trafficBatchId }),
        }),
  });
}

/**
 * Hardware age (staking's first among equals): the first report with the hardware sets `hardware_since`, an upgrade
 * (more cores or memory than stored) resets it (staking/hardware-age.ts). Evaluated only for the
 * rows whose report carries the hardware (the agent sends it first, on a change and hourly).
 */
const HARDWARE_SINCE = hardwareSinceSql('v.hardware', 'to_timestamp(v.last_report_at / 1000)');

/**
 * The agent reports' repository: writes them in batches (group commit, KeyedBatcher), one
 * `UPDATE` per batch. A report
 * is acknowledged only after its batch committed, so an accepted report is always persisted.
 *
 * Each write applies only if the row is still at the version the report was computed from: the
 * answer is the row's new version, or null when someone else changed (or deleted) the row
 * meanwhile; the caller then reads it again and re-applies the report.
 */
@Injectable()
export class AgentReportRepository implements OnApplicationShutdown {
  private readonly batcher = new KeyedBatcher<ReportRow, string | null>(
    (batch) => this.writeBatch(batch),
    null,
  );

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Writes a report computed from the row at `version`. A `quality` other than ok is also counted
   * in the server's reliability day (server_reliability_days, the report's UTC day) in the same
   * statement, only when the report's write applied: a report re-applied after a miss counts once.
   * `traffic` is added unless `trafficBatchId` is the batch last applied from this server (a
   * resend after a lost answer); a non-empty id is stored as the last applied one. '' (older
   * agents): always added.
   */
  write(
    serverId: string,
    version: string,
    columns: ReportColumns,
    quality: ReportQuality = 'ok',
    traffic: readonly ClientTrafficDelta[] = [],
    trafficBatchId = '',
  ): Promise<string | null> {
    const moved = traffic.filter((t) => t.uplinkBytes !== '0' || t.downlinkBytes !== '0');
    return this.batcher.submit(serverId, {
      json: reportRowJson(serverId, version, columns, quality, moved, trafficBatchId),
      counted: quality !== 'ok',
      traffic: moved.length > 0,
    });
  }

  onApplicationShutdown(): Promise<void> {
    return this.batcher.drain();
  }

  /**
   * One statement for the batch. If PostgreSQL refuses the data of some row (validation should
   * make that impossible), the rows are written one by one, so one node's bad report fails alone
   * instead of every report that shared its batch.
   */
  private async writeBatch(
    batch: ReadonlyMap<string, ReportRow>,
  ): Promise<Map<string, string | KeyFailure>> {
    try {
      return await this.update(batch);
    } catch (error) {
      if (batch.size === 1 || !isDataError(error)) throw error;
      const outcomes = new Map<string, string | KeyFailure>();
      for (const [id, row] of batch) {
        try {
          const version = (await this.update(new Map([[id, row]]))).get(id);
          if (version !== undefined) outcomes.set(id, version);
        } catch (rowError) {
          outcomes.set(id, new KeyFailure(rowError));
        }
      }
      return outcomes;
    }
  }

  private async update(batch: ReadonlyMap<string, ReportRow>): Promise<Map<string, string>> {
    let json = '[';
    let counted = false;
    let traffic = false;
    for (const row of batch.values()) {
      json += json.length === 1 ? row.json : `,${row.json}`;
      counted ||= row.counted;
      traffic ||= row.traffic;
    }
    json += ']';
    const written = await queryPrepared<{ id: string; version: string }>(
      this.dataSource,
      STATEMENTS[(counted ? 1 : 0) + (traffic ? 2 : 0)]!,
      // The id list again as an array: the planner knows its length (it cannot see into the
      // JSON) and probes the primary key instead of scanning servers for a small batch.
      // One JSON document for the whole batch (pg's serialisation of sixteen text-escaped arrays
      // was the writer's largest cost), joined from the rows serialised at submit.
      [json, [...batch.keys()]],
    );
    return new Map(written.map((row) => [row.id, row.version]));
  }
}

/** The batch's columns, set from the report rows `v` (json_to_recordset of $1). */
const SET_COLUMNS = `
         reliability_at_report = v.reliability, last_report_at = to_timestamp(v.last_report_at / 1000),
         last_credited_at = to_timestamp(v.last_credited_at / 1000),
         below_threshold_since = to_timestamp(v.below_since / 1000),
         banned_at = to_timestamp(v.banned_at / 1000), host = v.host, port = v.port, inbound = v.inbound,
         hardware = COALESCE(v.hardware, s.hardware),
         hardware_since = ${HARDWARE_SINCE}, agent_version = v.agent_version,
         core_state = v.core_state, active_clients = COALESCE(v.active_clients, s.active_clients),
         ping_ms = COALESCE(v.ping_ms, s.ping_ms), uptime_seconds = v.uptime, applied_client_set_version = v.applied_version,
         certificate_pem = CASE
           WHEN COALESCE(v.inbound->>'certificateSha256', '') = '' THEN NULL
           WHEN v.certificate_pem IS NOT NULL THEN v.certificate_pem
           WHEN s.inbound->>'certificateSha256' = v.inbound->>'certificateSha256' THEN s.certificate_pem
         END,
         updated_at = now()`;

/** The report rows of $1; `quality` (the drops only) where the statement counts them. */
const reportRecord = (extra = '') => `json_to_recordset($1::json)
         AS v(id uuid, version xid, reliability smallint, last_report_at float8,
              last_credited_at float8, below_since float8, banned_at float8, host text,
              port int, inbound jsonb, hardware jsonb, agent_version text, core_state text,
              active_clients int, ping_ms int, uptime bigint, applied_version bigint,
              certificate_pem text${extra})`;

/** Each report applies only to the row version it was computed from. */
const UPDATE = `UPDATE servers AS s SET ${SET_COLUMNS}
       FROM ${reportRecord()}
       WHERE s.id = v.id AND s.id = ANY($2::uuid[]) AND s.xmin = v.version
       RETURNING s.id, s.xmin::text AS version`;

/**
 * UPDATE, and for the reports that applied and are drops, one more in their server's UTC day of
 * the report with the score the drop left (the day's minimum). Day rows in key
 * order, as the history sweep writes them, so the two cannot deadlock.
 */
const COUNTED_DAYS = `counted AS (
         INSERT INTO server_reliability_days AS t
           (server_id, day, owner_uuid, tier, failed_reports, malformed_reports, min_reliability)
         SELECT w.id, (to_timestamp(v.last_report_at / 1000) AT TIME ZONE 'UTC')::date,
                w.owner_uuid, w.tier, (v.quality = 'client_count_failed')::int,
                (v.quality = 'malformed')::int, v.reliability
         FROM v JOIN written w ON w.id = v.id
         WHERE v.quality IS NOT NULL
         ORDER BY 1, 2
         ON CONFLICT (server_id, day) DO UPDATE SET
           failed_reports = t.failed_reports + excluded.failed_reports,
           malformed_reports = t.malformed_reports + excluded.malformed_reports,
           min_reliability = LEAST(t.min_reliability, excluded.min_reliability)
       )`;

/**
 * One report's bytes per client at most (per direction): 10^12, a terabyte, more than a node
 * can carry between two reports (100 Gbit/s for 80 s), so a day's row cannot overflow `bigint`
 * however many reports a node sends. A larger figure is a broken or lying agent.
 */
export const MAX_REPORT_CLIENT_BYTES = 1_000_000_000_000;

/**
 * UPDATE, and for the reports that applied and carry traffic, their clients' bytes
 * added to their subscriptions' days on the server (the report's UTC day). Only the server's own
 * clients (server_clients): a node cannot charge traffic to a subscription it does not serve.
 * A client listed twice in a report counts both (grouped: ON CONFLICT takes a row once). Rows in
 * key order, so concurrent batches cannot deadlock. A report re-applied after a version miss
 * counts once (only `written` rows add).
 *
 * A report whose batch id (`v.batch`, null from older agents) is the server's last applied one is
 * a resend after a lost answer: its bytes are not added again. `p` is the server row as the
 * statement's snapshot sees it, before `written`'s change: a written row was at the report's
 * version (`s.xmin = v.version`), committed before the statement began, so `p` is that very row
 * version. The batcher keys a batch by server (a later report of a server replaces an earlier
 * one), so a statement carries at most one report per server.
 */
const TRAFFIC_DAYS = `traffic AS (
         INSERT INTO subscription_traffic_days AS t (subscription_id, server_id, day, upload_bytes, download_bytes)
         SELECT su.id, w.id, (to_timestamp(v.last_report_at / 1000) AT TIME ZONE 'UTC')::date,
                sum(LEAST((c->>1)::numeric, ${MAX_REPORT_CLIENT_BYTES}))::bigint,
                sum(LEAST((c->>2)::numeric, ${MAX_REPORT_CLIENT_BYTES}))::bigint
         FROM v JOIN written w ON w.id = v.id
         CROSS JOIN LATERAL json_array_elements(v.traffic) AS c
         JOIN server_directory p ON p.id = w.id
         JOIN client_set_members sc ON sc.server_id = w.id AND sc.client_uuid = (c->>0)::uuid
         JOIN subscription_directory su ON su.vless_uuid = (c->>0)::uuid
         WHERE v.traffic IS NOT NULL
           AND (v.batch IS NULL OR p.last_traffic_batch_id IS DISTINCT FROM v.batch)
         GROUP BY 1, 2, 3
         ORDER BY 1, 2, 3
         ON CONFLICT (subscription_id, server_id, day) DO UPDATE SET
           upload_bytes = t.upload_bytes + excluded.upload_bytes,
           download_bytes = t.download_bytes + excluded.download_bytes
       )`;

/** UPDATE with the day rows the batch's reports need: counted drops, traffic, or both. */
function updateWith(counted: boolean, traffic: boolean): string {
  const extra = `${counted ? ', quality text' : ''}${traffic ? ', traffic json, batch uuid' : ''}`;
  const ctes = [counted ? COUNTED_DAYS : null, traffic ? TRAFFIC_DAYS : null].filter(Boolean);
  // Only reports with traffic carry a batch id; the others keep the stored one.
  const batch = traffic
    ? ', last_traffic_batch_id = COALESCE(v.batch, s.last_traffic_batch_id)'
    : '';
  return `WITH v AS (SELECT * FROM ${reportRecord(extra)}),
       written AS (
         UPDATE servers AS s SET ${SET_COLUMNS}${batch}
         FROM v WHERE s.id = v.id AND s.id = ANY($2::uuid[]) AND s.xmin = v.version
         RETURNING s.id, s.xmin::text AS version, s.owner_uuid, s.tier
       ), ${ctes.join(', ')}
       SELECT id, version FROM written`;
}

/** The statement of a batch, by (counted ? 1 : 0) + (traffic ? 2 : 0): the usual batch is plain. */
const STATEMENTS = [
  UPDATE,
  updateWith(true, false),
  updateWith(false, true),
  updateWith(true, true),
];

/** A timestamp as epoch milliseconds (exact in float8, and through `to_timestamp` to the microsecond). */
function epochMs(date: Date | null): number | null {
  return date === null ? null : date.getTime();
}

/** PostgreSQL's data exceptions (class 22) and integrity violations (class 23): the row, not the connection. */
function isDataError(error: unknown): boolean {
  const code = sqlState(error);
  return code !== undefined && (code.startsWith('22') || code.startsWith('23'));
}
