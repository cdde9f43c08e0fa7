import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';
import type { Transaction } from '../database/transaction-runner';
import { CLIENT_SET_CHANNEL } from './client-set-channel';
import { type PlanNetwork, type PlanSecurity, ServerEntity } from './entities/server.entity';

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
  ['hostName', 'host_name'],
  ['enrolledHost', 'enrolled_host'],
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
  ['hardwareSince', 'hardware_since'],
  ['halvingCut', 'halving_cut'],
  ['core', 'core'],
  ['planPort', 'plan_port'],
  ['planSecurity', 'plan_security'],
  ['planNetwork', 'plan_network'],
  ['planRevision', 'plan_revision'],
  ['portRegeneratedAt', 'port_regenerated_at'],
  ['probeUuid', 'probe_uuid'],
  ['autoRegenerateS', 'auto_regenerate_s'],
  ['certificatePem', 'certificate_pem'],
  ['appliedClientSetVersion', 'applied_client_set_version'],
  ['lastTrafficBatchId', 'last_traffic_batch_id'],
  ['createdAt', 'created_at'],
  ['updatedAt', 'updated_at'],
];

export function serverFromRow(row: Record<string, unknown>): ServerEntity {
  const entity = new ServerEntity();
  const fields = entity as unknown as Record<string, unknown>;
  for (const [property, column] of SERVER_COLUMNS) fields[property] = row[column];
  return entity;
}

/** The only DB access for the operators' servers (the dashboard's reads, changes and deletion). */
@Injectable()
export class NodesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Inserts a server inside the caller's transaction (enrollment). */
  async insertServer(
    tx: Transaction,
    server: Partial<ServerEntity> & Pick<ServerEntity, 'id' | 'ownerUuid' | 'name' | 'source'>,
  ): Promise<void> {
    await tx.getRepository(ServerEntity).insert(server);
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
    changes: Partial<Pick<ServerEntity, 'name' | 'country' | 'location' | 'autoRegenerateS'>>,
  ): Promise<boolean> {
    const result = await this.dataSource
      .getRepository(ServerEntity)
      .update({ id, ownerUuid }, changes);
    return (result.affected ?? 0) > 0;
  }

  /**
   * Sets an agent server's transport and bumps its plan's revision, inside the caller's
   * transaction (which also announces the plan to the node). A server enrolled before plans
   * existed keeps the port it reports as its persistent one. Null when the owner has no such
   * agent server.
   */
  async changeTransport(
    tx: Transaction,
    ownerUuid: string,
    id: string,
    security: PlanSecurity,
    network: PlanNetwork,
    fallbackPort: number,
  ): Promise<ServerEntity | null> {
    const rows = await queryRows<Record<string, unknown>>(
      tx,
      `UPDATE servers SET plan_security = $3, plan_network = $4,
              plan_port = COALESCE(plan_port, port, $5), plan_revision = plan_revision + 1,
              updated_at = now()
       WHERE id = $1 AND owner_uuid = $2 AND source = 'agent'
       RETURNING *`,
      [id, ownerUuid, security, network, fallbackPort],
    );
    return rows[0] ? serverFromRow(rows[0]) : null;
  }

  /**
   * The emergency port regeneration, inside the caller's transaction: moves the plan from
   * `previousPort` (as read: a concurrent change makes this miss) to `port`, bumps the revision
   * and stamps the time, only when the last regeneration is at least `intervalS` before `now`.
   * Null when nothing was changed (the caller reads the server to say why).
   */
  async regeneratePort(
    tx: Transaction,
    ownerUuid: string,
    id: string,
    change: {
      previousPort: number | null;
      port: number;
      security: PlanSecurity;
      now: Date;
      intervalS: number;
    },
  ): Promise<ServerEntity | null> {
    const rows = await queryRows<Record<string, unknown>>(
      tx,
      `UPDATE servers SET plan_port = $4, plan_security = COALESCE(plan_security, $5),
              plan_revision = plan_revision + 1, port_regenerated_at = $6, updated_at = now()
       WHERE id = $1 AND owner_uuid = $2 AND source = 'agent'
         AND plan_port IS NOT DISTINCT FROM $3
         AND (port_regenerated_at IS NULL OR port_regenerated_at <= $6::timestamptz - make_interval(secs => $7))
       RETURNING *`,
      [
        id,
        ownerUuid,
        change.previousPort,
        change.port,
        change.security,
        change.now,
        change.intervalS,
      ],
    );
    return rows[0] ? serverFromRow(rows[0]) : null;
  }

  /**
   * Inside the caller's transaction, after a plan change: bumps the server's client-set version
   * and notifies every replica at commit, so the node's WatchClients stream sends its set again
   * with the new plan (the set itself is unchanged).
   */
  async announcePlan(tx: Transaction, id: string): Promise<void> {
    await tx.query(
      `UPDATE server_client_sets SET version = version + 1 WHERE server_id = $1
       RETURNING pg_notify($2, server_id::text)`,
      [id, CLIENT_SET_CHANNEL],
    );
  }

  /** How many client places a server holds now (paused ones too), and its client-set version. */
  async clientSlots(serverId: string): Promise<{ allowed: number; version: string }> {
    const rows = await queryRows<{ allowed: number; version: string }>(
      this.dataSource,
      `SELECT (SELECT count(*)::int FROM client_set_members c WHERE c.server_id = $1) AS allowed,
              COALESCE((SELECT version::text FROM client_set_versions WHERE server_id = $1), '0') AS version`,
      [serverId],
    );
    return rows[0] ?? { allowed: 0, version: '0' };
  }

  /**
   * Whether the server is the owner's; if so its client set is locked (as purchases lock it)
   * until the caller's transaction ends.
   */
  async lockOwnedServer(tx: Transaction, ownerUuid: string, id: string): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      tx,
      `SELECT s.id FROM servers s WHERE s.id = $1 AND s.owner_uuid = $2`,
      [id, ownerUuid],
    );
    if (rows.length === 0) return false;
    await tx.query(
      `SELECT server_id FROM client_set_versions WHERE server_id = $1 FOR NO KEY UPDATE`,
      [id],
    );
    return true;
  }

  /** Deletes a server inside the caller's transaction (its client set and places go with it). */
  async deleteServer(tx: Transaction, id: string): Promise<void> {
    await tx.query(`DELETE FROM servers WHERE id = $1`, [id]);
  }
}
