import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';
import type { Estimate } from './reachability-rules';

/** A server, country and network: the key of an estimate. */
export interface ReachKey {
  serverId: string;
  country: string;
  asn: number;
}

export interface NewObservation extends ReachKey {
  observerId: string;
  observerKind: 'probe' | 'client';
  works: boolean;
  errorClass: string;
  totalMs: number | null;
  planRevision: string;
  observedAt: Date;
}

export interface StoredObservation extends ReachKey {
  observerKind: 'probe' | 'client';
  works: boolean;
  observedAt: Date;
  agreements: number;
  disagreements: number;
}

export interface EstimateRow extends ReachKey {
  score: number;
  state: 'w' | 'b' | 'u';
  observers: number;
  probes: number;
  measuredAt: Date;
  blockedSince: Date | null;
}

export interface StateChange extends ReachKey {
  before: 'w' | 'b' | 'u' | null;
  after: 'w' | 'b' | 'u' | null;
}

const keysJson = (keys: readonly ReachKey[]) =>
  JSON.stringify(keys.map((k) => ({ s: k.serverId, c: k.country, a: k.asn })));

/**
 * The observations and estimates (docs/reachability.md). Only what is of a server's current
 * inbound plan counts: observations and estimates carry the plan revision they were of.
 */
@Injectable()
export class ReachabilityRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Stores each observer's latest observation (one row per observer, server and network), for
   * servers that still exist and of their current plan; answers what was stored.
   */
  async record(observations: readonly NewObservation[]): Promise<ReachKey[]> {
    if (observations.length === 0) return [];
    const rows = await queryRows<{ server_id: string; country: string; asn: number }>(
      this.dataSource,
      `INSERT INTO reachability_observations AS o
         (server_id, country, asn, observer_id, observer_kind, works, error_class, total_ms,
          plan_revision, observed_at)
       SELECT r.server_id, r.country, r.asn, r.observer_id, r.observer_kind, r.works,
              r.error_class, r.total_ms, r.plan_revision, r.observed_at
       FROM json_to_recordset($1::json) AS r(server_id uuid, country char(2), asn int,
              observer_id uuid, observer_kind varchar, works boolean, error_class varchar,
              total_ms int, plan_revision bigint, observed_at timestamptz)
       JOIN server_directory s ON s.id = r.server_id AND s.plan_revision = r.plan_revision
       ORDER BY r.server_id, r.country, r.asn, r.observer_id
       ON CONFLICT (server_id, country, asn, observer_id) DO UPDATE SET
         observer_kind = EXCLUDED.observer_kind, works = EXCLUDED.works,
         error_class = EXCLUDED.error_class, total_ms = EXCLUDED.total_ms,
         plan_revision = EXCLUDED.plan_revision, observed_at = EXCLUDED.observed_at
       WHERE o.observed_at <= EXCLUDED.observed_at
       RETURNING o.server_id, o.country, o.asn`,
      [
        JSON.stringify(
          observations.map((o) => ({
            server_id: o.serverId,
            country: o.country,
            asn: o.asn,
            observer_id: o.observerId,
            observer_kind: o.observerKind,
            works: o.works,
            error_class: o.errorClass,
            total_ms: o.totalMs,
            plan_revision: o.planRevision,
            observed_at: o.observedAt.toISOString(),
          })),
        ),
      ],
    );
    return rows.map((r) => ({ serverId: r.server_id, country: r.country, asn: r.asn }));
  }

  /** The observations of the current plans behind these estimates, with each reporter's record. */
  async observationsOf(keys: readonly ReachKey[], since: Date): Promise<StoredObservation[]> {
    if (keys.length === 0) return [];
    const rows = await queryRows<{
      server_id: string;
      country: string;
      asn: number;
      observer_kind: 'probe' | 'client';
      works: boolean;
      observed_at: Date;
      agreements: number | null;
      disagreements: number | null;
    }>(
      this.dataSource,
      `SELECT o.server_id, o.country, o.asn, o.observer_kind, o.works, o.observed_at,
              t.agreements, t.disagreements
       FROM json_to_recordset($1::json) AS k(s uuid, c char(2), a int)
       JOIN reachability_observations o ON o.server_id = k.s AND o.country = k.c AND o.asn = k.a
       JOIN server_directory s ON s.id = o.server_id AND s.plan_revision = o.plan_revision
       LEFT JOIN reachability_reporters t
         ON o.observer_kind = 'client' AND t.account_uuid = o.observer_id
       WHERE o.observed_at >= $2`,
      [keysJson(keys), since],
    );
    return rows.map((r) => ({
      serverId: r.server_id,
      country: r.country,
      asn: r.asn,
      observerKind: r.observer_kind,
      works: r.works,
      observedAt: new Date(r.observed_at),
      agreements: r.agreements ?? 0,
      disagreements: r.disagreements ?? 0,
    }));
  }

  /**
   * Writes the estimates (a null one deletes its row) in key order and answers each key's state
   * before and after. `blocked_since` carries over while the state stays blocked on one plan.
   */
  async saveEstimates(
    estimates: ReadonlyArray<{ key: ReachKey; estimate: Estimate | null }>,
  ): Promise<StateChange[]> {
    if (estimates.length === 0) return [];
    const sorted = [...estimates].sort((x, y) =>
      `${x.key.serverId}${x.key.country}${x.key.asn}`.localeCompare(
        `${y.key.serverId}${y.key.country}${y.key.asn}`,
      ),
    );
    const rows = await queryRows<{
      server_id: string;
      country: string;
      asn: number;
      before: 'w' | 'b' | 'u' | null;
      after: 'w' | 'b' | 'u' | null;
    }>(
      this.dataSource,
      `WITH input AS (
         SELECT e.*, s.plan_revision
         FROM json_to_recordset($1::json) AS e(s uuid, c char(2), a int, score smallint,
                state char(1), observers smallint, probes smallint, measured_at timestamptz)
         JOIN server_directory s ON s.id = e.s
       ), old AS (
         SELECT r.server_id, r.country, r.asn, r.state, r.blocked_since, r.plan_revision
         FROM server_reachability r JOIN input i ON r.server_id = i.s AND r.country = i.c AND r.asn = i.a
         ORDER BY r.server_id, r.country, r.asn FOR UPDATE OF r
       ), gone AS (
         DELETE FROM server_reachability r USING input i
         WHERE i.state IS NULL AND r.server_id = i.s AND r.country = i.c AND r.asn = i.a
         RETURNING r.server_id
       ), saved AS (
         INSERT INTO server_reachability AS r
           (server_id, country, asn, score, state, observers, probes, measured_at, blocked_since,
            plan_revision)
         SELECT i.s, i.c, i.a, i.score, i.state, i.observers, i.probes, i.measured_at,
                CASE WHEN i.state = 'b' THEN
                  COALESCE((SELECT o.blocked_since FROM old o WHERE o.server_id = i.s AND o.country = i.c
                              AND o.asn = i.a AND o.state = 'b' AND o.plan_revision = i.plan_revision),
                           i.measured_at)
                END,
                i.plan_revision
         FROM input i WHERE i.state IS NOT NULL
         ON CONFLICT (server_id, country, asn) DO UPDATE SET
           score = EXCLUDED.score, state = EXCLUDED.state, observers = EXCLUDED.observers,
           probes = EXCLUDED.probes, measured_at = EXCLUDED.measured_at,
           blocked_since = EXCLUDED.blocked_since, plan_revision = EXCLUDED.plan_revision
         RETURNING r.server_id
       )
       SELECT i.s AS server_id, i.c AS country, i.a AS asn,
              (SELECT o.state FROM old o WHERE o.server_id = i.s AND o.country = i.c AND o.asn = i.a
                 AND o.plan_revision = i.plan_revision) AS before,
              i.state AS after
       FROM input i`,
      [
        JSON.stringify(
          sorted.map(({ key, estimate }) => ({
            s: key.serverId,
            c: key.country,
            a: key.asn,
            score: estimate?.score ?? null,
            state: estimate?.state ?? null,
            observers: estimate?.observers ?? null,
            probes: estimate?.probes ?? null,
            measured_at: estimate?.measuredAt.toISOString() ?? null,
          })),
        ),
      ],
    );
    return rows.map((r) => ({
      serverId: r.server_id,
      country: r.country,
      asn: r.asn,
      before: r.before,
      after: r.after,
    }));
  }

  /** The estimates of these servers (current plans only), freshest first. */
  async estimatesOf(serverIds: readonly string[]): Promise<EstimateRow[]> {
    if (serverIds.length === 0) return [];
    const rows = await queryRows<EstimateDbRow>(
      this.dataSource,
      `SELECT r.server_id, r.country, r.asn, r.score, r.state, r.observers, r.probes,
              r.measured_at, r.blocked_since
       FROM unnest($1::uuid[]) AS k(id)
       JOIN server_reachability r ON r.server_id = k.id
       JOIN server_directory s ON s.id = r.server_id
       WHERE r.plan_revision = s.plan_revision
       ORDER BY r.server_id, r.country, r.asn`,
      [serverIds],
    );
    return rows.map(toEstimateRow);
  }

  /**
   * The estimates of these servers from one country (all its networks), current plans only:
   * one primary-key probe per server (the market asks this for every placed visitor's page;
   * `= ANY` planned a bitmap scan at 3 times the cost).
   */
  async estimatesFrom(serverIds: readonly string[], country: string): Promise<EstimateRow[]> {
    if (serverIds.length === 0) return [];
    const rows = await queryRows<EstimateDbRow>(
      this.dataSource,
      `SELECT r.server_id, r.country, r.asn, r.score, r.state, r.observers, r.probes,
              r.measured_at, r.blocked_since
       FROM unnest($1::uuid[]) AS k(id)
       JOIN server_reachability r ON r.server_id = k.id AND r.country = $2
       JOIN server_directory s ON s.id = r.server_id
       WHERE r.plan_revision = s.plan_revision`,
      [serverIds, country],
    );
    return rows.map(toEstimateRow);
  }

  /** Servers measured working from a network since `since` (current plans), best score first. */
  async workingFrom(country: string, asn: number, since: Date, limit: number): Promise<string[]> {
    const rows = await queryRows<{ server_id: string }>(
      this.dataSource,
      `SELECT r.server_id FROM server_reachability r JOIN server_directory s ON s.id = r.server_id
       WHERE r.country = $1 AND r.asn = $2 AND r.state = 'w' AND r.measured_at >= $3
         AND r.plan_revision = s.plan_revision
       ORDER BY r.score DESC, r.server_id LIMIT $4`,
      [country, asn, since, limit],
    );
    return rows.map((r) => r.server_id);
  }

  /** Servers blocked somewhere now (current plan, fresh) whose owner allows the regeneration. */
  async blockedWithAutoRegeneration(since: Date): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `SELECT DISTINCT s.id FROM server_directory s JOIN server_reachability r
         ON r.server_id = s.id AND r.plan_revision = s.plan_revision
       WHERE s.auto_regenerate_s IS NOT NULL AND r.state = 'b' AND r.measured_at >= $1`,
      [since],
    );
    return rows.map((r) => r.id);
  }

  /** Deletes observations older than `observedBefore` and estimates older than `measuredBefore`. */
  async prune(observedBefore: Date, measuredBefore: Date): Promise<string[]> {
    await this.dataSource.query(`DELETE FROM reachability_observations WHERE observed_at < $1`, [
      observedBefore,
    ]);
    const rows = await queryRows<{ server_id: string }>(
      this.dataSource,
      `DELETE FROM server_reachability r
       WHERE r.measured_at < $1
          OR r.plan_revision <> (SELECT s.plan_revision FROM server_directory s WHERE s.id = r.server_id)
       RETURNING r.server_id`,
      [measuredBefore],
    );
    return [...new Set(rows.map((r) => r.server_id))];
  }
}

interface EstimateDbRow {
  server_id: string;
  country: string;
  asn: number;
  score: number;
  state: 'w' | 'b' | 'u';
  observers: number;
  probes: number;
  measured_at: Date;
  blocked_since: Date | null;
}

function toEstimateRow(r: EstimateDbRow): EstimateRow {
  return {
    serverId: r.server_id,
    country: r.country,
    asn: r.asn,
    score: r.score,
    state: r.state,
    observers: r.observers,
    probes: r.probes,
    measuredAt: new Date(r.measured_at),
    blockedSince: r.blocked_since ? new Date(r.blocked_since) : null,
  };
}
