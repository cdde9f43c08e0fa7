import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';

export interface VantagePointRow {
  id: string;
  ownerUuid: string;
  name: string;
  secretHash: string;
  country: string | null;
  asn: number | null;
  lastSeenAt: Date | null;
}

/** A server as a vantage point tests it: its current inbound and probe UUID. */
export interface ProbeTarget {
  serverId: string;
  host: string;
  port: number;
  inbound: Record<string, string>;
  planRevision: string;
  probeUuid: string;
}

/** The only SQL of vantage points and their tokens. */
@Injectable()
export class VantagePointsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insertToken(row: {
    id: string;
    tokenHash: string;
    ownerUuid: string;
    name: string;
    expiresAt: Date;
  }): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO vantage_point_tokens (id, token_hash, owner_uuid, name, expires_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [row.id, row.tokenHash, row.ownerUuid, row.name, row.expiresAt],
    );
  }

  /**
   * Spends a token and creates its vantage point in one statement: a token is used once, even
   * by two enrollments at the same moment. Null when the token is unknown, used or expired.
   */
  async enroll(
    tokenHash: string,
    probe: { id: string; secretHash: string; agentVersion: string; name: string | null },
    now: Date,
  ): Promise<{ id: string; ownerUuid: string } | null> {
    const rows = await queryRows<{ id: string; owner_uuid: string }>(
      this.dataSource,
      `WITH spent AS (
         UPDATE vantage_point_tokens SET used_at = $2, probe_id = $3
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2
         RETURNING owner_uuid, name
       )
       INSERT INTO vantage_points (id, owner_uuid, name, secret_hash, agent_version, created_at)
       SELECT $3, owner_uuid, COALESCE(NULLIF($6, ''), name), $4, $5, $2 FROM spent
       RETURNING id, owner_uuid`,
      [tokenHash, now, probe.id, probe.secretHash, probe.agentVersion, probe.name ?? ''],
    );
    const row = rows[0];
    return row ? { id: row.id, ownerUuid: row.owner_uuid } : null;
  }

  async find(id: string): Promise<VantagePointRow | null> {
    const rows = await queryRows<VantagePointDbRow>(
      this.dataSource,
      `SELECT id, owner_uuid, name, secret_hash, country, asn, last_seen_at
       FROM vantage_points WHERE id = $1`,
      [id],
    );
    return rows[0] ? toVantagePoint(rows[0]) : null;
  }

  async seen(
    id: string,
    place: { address: string; country: string | null; asn: number | null; agentVersion: string },
    now: Date,
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE vantage_points SET last_address = $2, country = $3, asn = $4, last_seen_at = $5,
              agent_version = COALESCE(NULLIF($6, ''), agent_version)
       WHERE id = $1`,
      [id, place.address, place.country, place.asn, now, place.agentVersion],
    );
  }

  /** The owner's vantage points with the endpoints each tested in the last hour. */
  async listOwned(
    ownerUuid: string,
    since: Date,
  ): Promise<Array<VantagePointRow & { testsLastHour: number }>> {
    const rows = await queryRows<VantagePointDbRow & { tests: string }>(
      this.dataSource,
      `SELECT v.id, v.owner_uuid, v.name, v.secret_hash, v.country, v.asn, v.last_seen_at,
              (SELECT count(*) FROM reachability_observations o
               WHERE o.observer_id = v.id AND o.observed_at >= $2) AS tests
       FROM vantage_points v WHERE v.owner_uuid = $1 ORDER BY v.created_at, v.id`,
      [ownerUuid, since],
    );
    return rows.map((row) => ({ ...toVantagePoint(row), testsLastHour: Number(row.tests) }));
  }

  /** Deletes an owner's vantage point and its observations; false when it is not theirs. */
  async deleteOwned(ownerUuid: string, id: string): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const rows = await queryRows<{ id: string }>(
        manager,
        `DELETE FROM vantage_points WHERE id = $1 AND owner_uuid = $2 RETURNING id`,
        [id, ownerUuid],
      );
      if (rows.length === 0) return false;
      await manager.query(`DELETE FROM reachability_observations WHERE observer_id = $1`, [id]);
      return true;
    });
  }

  /**
   * The agent servers a vantage point in this network should test now: reporting, with an
   * address; never measured from here (or on an older plan) first, then the least recently
   * measured.
   */
  async targetsFor(
    country: string,
    asn: number,
    freshSince: Date,
    limit: number,
  ): Promise<ProbeTarget[]> {
    const rows = await queryRows<{
      id: string;
      host: string;
      port: number;
      inbound: Record<string, string>;
      plan_revision: string;
      probe_uuid: string;
    }>(
      this.dataSource,
      `SELECT s.id, s.host, s.port, s.inbound, s.plan_revision::text AS plan_revision, s.probe_uuid
       FROM server_directory s
       LEFT JOIN server_reachability r
         ON r.server_id = s.id AND r.country = $1 AND r.asn = $2 AND r.plan_revision = s.plan_revision
       WHERE s.source = 'agent' AND s.host IS NOT NULL AND s.port IS NOT NULL
         AND s.banned_at IS NULL AND s.last_report_at >= $3
       ORDER BY r.measured_at ASC NULLS FIRST, s.id
       LIMIT $4`,
      [country, asn, freshSince, limit],
    );
    return rows.map((row) => ({
      serverId: row.id,
      host: row.host,
      port: row.port,
      inbound: row.inbound,
      planRevision: row.plan_revision,
      probeUuid: row.probe_uuid,
    }));
  }
}

interface VantagePointDbRow {
  id: string;
  owner_uuid: string;
  name: string;
  secret_hash: string;
  country: string | null;
  asn: number | null;
  last_seen_at: Date | null;
}

function toVantagePoint(row: VantagePointDbRow): VantagePointRow {
  return {
    id: row.id,
    ownerUuid: row.owner_uuid,
    name: row.name,
    secretHash: row.secret_hash,
    country: row.country,
    asn: row.asn,
    lastSeenAt: row.last_seen_at,
  };
}
