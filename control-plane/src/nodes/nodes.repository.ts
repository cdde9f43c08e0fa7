import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../common/sql';
import { RELIABILITY, type ReliabilityState } from '../reliability/reliability';
import { EnrollmentTokenEntity } from './entities/enrollment-token.entity';
import { ServerEntity } from './entities/server.entity';

/** The channel on which every replica hears that a server's allowed client set changed. */
export const CLIENT_SET_CHANNEL = 'scn_client_sets';

/**
 * The reliability sweep skips servers that reported this long before the staleness threshold:
 * a margin so that rounding or skew can only add candidates (see listServersForSweep).
 */
export const SWEEP_FRESH_MARGIN_MS = 5 * 60_000;

/** A server the sweep reads: its reliability state, id, and row version (`xmin`) as read. */
export interface SweepCandidate extends ReliabilityState {
  id: string;
  /** Moves with every write of the row, as for reports (ReportWriter): the sweep's guard. */
  version: string;
}

/** What the sweep writes for one server, with the row version it was computed from. */
export type SweepSettlement = Pick<
  SweepCandidate,
  'id' | 'version' | 'belowThresholdSince' | 'bannedAt'
>;

export interface ClientSet {
  version: string;
  clientUuids: string[];
}

/** A `servers` row as the entity (what TypeORM's mapping would give, without its cost). */
const SERVER_COLUMNS: ReadonlyArray<readonly [keyof ServerEntity, string]> = [
  ['id', 'id'],
  ['ownerUuid', 'owner_uuid'],
  ['name', 'name'],
  ['source', 'source'],
  ['country', 'country'],
  ['location', 'location'],
  ['tier', 'tier'],
  ['secretHash', 'secret_hash'],
  ['host', 'host'],
  ['port', 'port'],
  ['inbound', 'inbound'],
  ['vlessString', 'vless_string'],
  ['hardware', 'hardware'],
  ['agentVersion', 'agent_version'],
  ['coreState', 'core_state'],
  ['activeClients', 'active_clients'],
  ['pingMs', 'ping_ms'],
  ['uptimeSeconds', 'uptime_seconds'],
  ['reliabilityAtReport', 'reliability_at_report'],
  ['lastReportAt', 'last_report_at'],
  ['lastCreditedAt', 'last_credited_at'],
  ['belowThresholdSince', 'below_threshold_since'],
  ['bannedAt', 'banned_at'],
  ['checkedAt', 'checked_at'],
  ['checkError', 'check_error'],
  ['appliedClientSetVersion', 'applied_client_set_version'],
  ['createdAt', 'created_at'],
  ['updatedAt', 'updated_at'],
];

export function serverFromRow(row: Record<string, unknown>): ServerEntity {
  const entity = new ServerEntity();
  const fields = entity as unknown as Record<string, unknown>;
  for (const [property, column] of SERVER_COLUMNS) fields[property] = row[column];
  return entity;
}

/** The only DB access for servers, enrollment tokens and allowed client sets. */
@Injectable()
export class NodesRepository {
  constructor(@InjectDataSource() readonly dataSource: DataSource) {}

  async insertEnrollmentToken(
    token: Omit<EnrollmentTokenEntity, 'createdAt' | 'owner' | 'usedAt' | 'serverId'>,
  ): Promise<void> {
    await this.dataSource
      .getRepository(EnrollmentTokenEntity)
      .insert({ ...token, usedAt: null, serverId: null });
  }

  /** Marks the token used, inside the caller's transaction; null if unknown, used or expired. */
  async consumeEnrollmentToken(
    manager: EntityManager,
    tokenHash: string,
    now: Date,
  ): Promise<EnrollmentTokenEntity | null> {
    const rows = await queryRows<{
      id: string;
      owner_uuid: string;
      tier: EnrollmentTokenEntity['tier'];
    }>(
      manager,
      `UPDATE enrollment_tokens SET used_at = $2
       WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2
       RETURNING id, owner_uuid, tier`,
      [tokenHash, now],
    );
    const row = rows[0];
    if (!row) return null;
    return { id: row.id, ownerUuid: row.owner_uuid, tier: row.tier } as EnrollmentTokenEntity;
  }

  async linkTokenToServer(
    manager: EntityManager,
    tokenId: string,
    serverId: string,
  ): Promise<void> {
    await manager.getRepository(EnrollmentTokenEntity).update({ id: tokenId }, { serverId });
  }

  async insertServer(
    manager: EntityManager,
    server: Partial<ServerEntity> & Pick<ServerEntity, 'id' | 'ownerUuid' | 'name' | 'source'>,
  ): Promise<void> {
    await manager.getRepository(ServerEntity).insert(server);
  }

  /** One server by id, in one plain query (the agent hot path: every report authenticates). */
  async findServer(id: string): Promise<ServerEntity | null> {
    const rows = await queryRows<Record<string, unknown>>(
      this.dataSource,
      `SELECT * FROM servers WHERE id = $1`,
      [id],
    );
    return rows[0] ? serverFromRow(rows[0]) : null;
  }

  /** Owner-scoped read: another operator's server is simply not found. */
  findOwnedServer(ownerUuid: string, id: string): Promise<ServerEntity | null> {
    return this.dataSource.getRepository(ServerEntity).findOneBy({ id, ownerUuid });
  }

  listOwnedServers(ownerUuid: string): Promise<ServerEntity[]> {
    return this.dataSource
      .getRepository(ServerEntity)
      .find({ where: { ownerUuid }, order: { createdAt: 'ASC' } });
  }

  /**
   * Changes an operator's own server; false when it is not theirs (or gone). Only the given
   * fields are written, so a concurrent report's columns are left alone.
   */
  async updateOwnedServer(
    ownerUuid: string,
    id: string,
    changes: Partial<Pick<ServerEntity, 'name' | 'country' | 'location'>>,
  ): Promise<boolean> {
    const result = await this.dataSource
      .getRepository(ServerEntity)
      .update({ id, ownerUuid }, changes);
    return (result.affected ?? 0) > 0;
  }

  /** How many client places a server holds now (paused ones too), and its client-set version. */
  async clientSlots(serverId: string): Promise<{ allowed: number; version: string }> {
    const rows = await queryRows<{ allowed: number; version: string }>(
      this.dataSource,
      `SELECT (SELECT count(*)::int FROM server_clients c WHERE c.server_id = $1) AS allowed,
              COALESCE((SELECT version::text FROM server_client_sets WHERE server_id = $1), '0') AS version`,
      [serverId],
    );
    return rows[0] ?? { allowed: 0, version: '0' };
  }

  /**
   * Whether the server is the owner's; if so its client set is locked (as purchases lock it)
   * until the caller's transaction ends.
   */
  async lockOwnedServer(manager: EntityManager, ownerUuid: string, id: string): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      manager,
      `SELECT s.id FROM servers s WHERE s.id = $1 AND s.owner_uuid = $2`,
      [id, ownerUuid],
    );
    if (rows.length === 0) return false;
    await manager.query(
      `SELECT server_id FROM server_client_sets WHERE server_id = $1 FOR NO KEY UPDATE`,
      [id],
    );
    return true;
  }

  /** Deletes a server inside the caller's transaction (its client set and places go with it). */
  async deleteServer(manager: EntityManager, id: string): Promise<void> {
    await manager.query(`DELETE FROM servers WHERE id = $1`, [id]);
  }

  async updateServer(id: string, changes: Partial<ServerEntity>): Promise<void> {
    await this.dataSource.getRepository(ServerEntity).update({ id }, changes);
  }

  /** Servers added by hand with a VLESS string and not banned: the control plane probes them. */
  listManualServersForProbe(): Promise<ServerEntity[]> {
    return this.dataSource
      .getRepository(ServerEntity)
      .createQueryBuilder('s')
      .where(`s.source = 'manual'`)
      .andWhere('s.banned_at IS NULL')
      .getMany();
  }

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

  async clientSet(serverId: string): Promise<ClientSet | null> {
    const rows = await queryRows<{ version: string; uuids: string[] | null }>(
      this.dataSource,
      `SELECT cs.version::text AS version,
              array_agg(c.client_uuid::text ORDER BY c.client_uuid) FILTER (WHERE c.client_uuid IS NOT NULL) AS uuids
       FROM server_client_sets cs LEFT JOIN server_clients c ON c.server_id = cs.server_id AND c.enabled
       WHERE cs.server_id = $1 GROUP BY cs.server_id`,
      [serverId],
    );
    const row = rows[0];
    return row ? { version: row.version, clientUuids: row.uuids ?? [] } : null;
  }

  /**
   * Replaces the allowed set and bumps its version in one transaction; the notification is
   * delivered to every replica when it commits.
   */
  async replaceClientSet(serverId: string, clientUuids: readonly string[]): Promise<string> {
    return this.dataSource.transaction(async (manager) => {
      const rows = await queryRows<{ version: string }>(
        manager,
        `UPDATE server_client_sets SET version = version + 1 WHERE server_id = $1 RETURNING version::text AS version`,
        [serverId],
      );
      const version = rows[0]?.version;
      if (version === undefined) throw new Error(`server ${serverId} does not exist`);
      await manager.query(`DELETE FROM server_clients WHERE server_id = $1`, [serverId]);
      if (clientUuids.length > 0) {
        await manager.query(
          `INSERT INTO server_clients (server_id, client_uuid) SELECT $1, unnest($2::uuid[])`,
          [serverId, [...new Set(clientUuids)]],
        );
      }
      await manager.query(`SELECT pg_notify($1, $2)`, [CLIENT_SET_CHANNEL, serverId]);
      return version;
    });
  }

  /**
   * Allows one client UUID on several servers inside the caller's transaction (a purchase or an
   * activation): the rows, the version bump and the notification commit or roll back with it,
   * in one statement. Returns the servers whose set changed.
   */
  async addClients(
    manager: EntityManager,
    serverIds: readonly string[],
    clientUuid: string,
  ): Promise<string[]> {
    if (serverIds.length === 0) return [];
    return this.changeClients(
      manager,
      `INSERT INTO server_clients (server_id, client_uuid)
       SELECT s, $2 FROM unnest($1::uuid[]) AS s ORDER BY s
       ON CONFLICT DO NOTHING RETURNING server_id`,
      serverIds,
      clientUuid,
    );
  }

  /** Takes one client UUID off several servers inside the caller's transaction. */
  async removeClients(
    manager: EntityManager,
    serverIds: readonly string[],
    clientUuid: string,
  ): Promise<string[]> {
    if (serverIds.length === 0) return [];
    return this.changeClients(
      manager,
      `DELETE FROM server_clients WHERE server_id = ANY($1::uuid[]) AND client_uuid = $2
       RETURNING server_id`,
      serverIds,
      clientUuid,
    );
  }

  /**
   * Runs `change` (returning server_id) and, for the servers it changed, bumps the set version
   * (rows locked in id order, so concurrent callers cannot deadlock on them) and notifies every
   * replica; PostgreSQL delivers NOTIFY only when the caller commits.
   */
  /**
   * Keeps the client's places but takes its UUID out of (or back into) the sets pushed to the
   * nodes: a paused subscription holds its slots without being able to connect.
   */
  async setClientsEnabled(
    manager: EntityManager,
    serverIds: readonly string[],
    clientUuid: string,
    enabled: boolean,
  ): Promise<string[]> {
    if (serverIds.length === 0) return [];
    return this.changeClients(
      manager,
      `UPDATE server_clients SET enabled = ${enabled ? 'TRUE' : 'FALSE'}
       WHERE server_id = ANY($1::uuid[]) AND client_uuid = $2 AND enabled = ${enabled ? 'FALSE' : 'TRUE'}
       RETURNING server_id`,
      serverIds,
      clientUuid,
    );
  }

  private async changeClients(
    manager: EntityManager,
    change: string,
    serverIds: readonly string[],
    clientUuid: string,
  ): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      manager,
      `WITH changed AS (${change}),
       locked AS (
         SELECT server_id FROM server_client_sets WHERE server_id IN (SELECT server_id FROM changed)
         ORDER BY server_id FOR NO KEY UPDATE
       ),
       bumped AS (
         UPDATE server_client_sets cs SET version = cs.version + 1
         FROM locked WHERE cs.server_id = locked.server_id RETURNING cs.server_id
       )
       SELECT server_id::text AS id, pg_notify($3, server_id::text) FROM bumped`,
      [[...new Set(serverIds)], clientUuid, CLIENT_SET_CHANNEL],
    );
    return rows.map((row) => row.id);
  }
}
