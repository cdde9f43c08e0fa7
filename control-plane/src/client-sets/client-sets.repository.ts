import { Injectable, type Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, QueryFailedError } from 'typeorm';
import { PgListener, type PgListenerHandlers } from '../common/pg-listener';
import { queryRows, sqlState } from '../common/sql';
import type { Transaction } from '../database/transaction-runner';
import { CLIENT_SET_CHANNEL } from '../nodes/client-set-channel';

/** Every replica hears a server's set (or plan) change on this channel. */
export { CLIENT_SET_CHANNEL };

export interface ClientSet {
  version: string;
  clientUuids: string[];
  /**
   * The inbound the node should serve, sent with every set: its port (0: keep the
   * current one), security ('' : the core's default), network and the plan's revision.
   */
  inboundPlan: { port: number; security: string; network: string; revision: string };
}

/** A server to take a place on; without `capacity`, its tier's (VPS_TIERS, in SQL market_capacity). */
export interface WantedPlace {
  id: string;
  capacity?: number;
}

/**
 * `take` refused: the server does not exist, or its places are all taken. The database raised,
 * so the caller's transaction is aborted: it can only roll back (throw the domain's exception).
 */
export class ClientSetRefusal extends Error {
  constructor(
    readonly reason: 'server_not_found' | 'server_full',
    readonly serverId: string,
  ) {
    super(`${reason}: ${serverId}`);
  }
}

/** The only DB access for the client sets: the places on each server and the set's version. */
@Injectable()
export class ClientSetsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * A LISTEN on CLIENT_SET_CHANNEL over a connection of its own: `handlers` hear every
   * replica's changes (ClientSetNotifier starts and stops it).
   */
  listen(handlers: PgListenerHandlers, logger: Logger): PgListener {
    return new PgListener(this.dataSource, CLIENT_SET_CHANNEL, handlers, logger);
  }

  async clientSet(serverId: string): Promise<ClientSet | null> {
    const rows = await queryRows<{
      version: string;
      uuids: string[] | null;
      plan_port: number | null;
      plan_security: string | null;
      plan_network: string;
      plan_revision: string;
      probe_uuid: string;
    }>(
      this.dataSource,
      `SELECT cs.version::text AS version,
              array_agg(c.client_uuid::text ORDER BY c.client_uuid) FILTER (WHERE c.client_uuid IS NOT NULL) AS uuids,
              s.plan_port, s.plan_security, s.plan_network, s.plan_revision::text AS plan_revision,
              s.probe_uuid::text AS probe_uuid
       FROM server_client_sets cs JOIN server_directory s ON s.id = cs.server_id
       LEFT JOIN server_clients c ON c.server_id = cs.server_id AND c.enabled
       WHERE cs.server_id = $1
       -- A view has no primary key to group by: its columns are named (one server per set).
       GROUP BY cs.server_id, s.plan_port, s.plan_security, s.plan_network, s.plan_revision,
         s.probe_uuid`,
      [serverId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      version: row.version,
      // The vantage points' UUID rides with the clients' (docs/reachability.md): never a
      // client's, never a place; sorted in, so the set reads the same however it was built.
      clientUuids: [...(row.uuids ?? []), row.probe_uuid].sort(),
      inboundPlan: {
        port: row.plan_port ?? 0,
        security: row.plan_security ?? '',
        network: row.plan_network,
        revision: row.plan_revision,
      },
    };
  }

  /**
   * Replaces the allowed set and bumps its version in one transaction; the notification is
   * delivered to every replica when it commits.
   */
  async replaceClientSet(serverId: string, clientUuids: readonly string[]): Promise<string> {
    return this.dataSource.transaction(async (tx) => {
      const rows = await queryRows<{ version: string }>(
        tx,
        `UPDATE server_client_sets SET version = version + 1 WHERE server_id = $1 RETURNING version::text AS version`,
        [serverId],
      );
      const version = rows[0]?.version;
      if (version === undefined) throw new Error(`server ${serverId} does not exist`);
      await tx.query(`DELETE FROM server_clients WHERE server_id = $1`, [serverId]);
      if (clientUuids.length > 0) {
        await tx.query(
          `INSERT INTO server_clients (server_id, client_uuid) SELECT $1, unnest($2::uuid[])`,
          [serverId, [...new Set(clientUuids)]],
        );
      }
      await tx.query(`SELECT pg_notify($1, $2)`, [CLIENT_SET_CHANNEL, serverId]);
      return version;
    });
  }

  /**
   * Allows one client UUID on several servers inside the caller's transaction (a purchase or an
   * activation): the rows, the version bump and the notification commit or roll back with it,
   * in one statement. Returns the servers whose set changed.
   */
  async addClients(
    tx: Transaction,
    serverIds: readonly string[],
    clientUuid: string,
  ): Promise<string[]> {
    if (serverIds.length === 0) return [];
    return this.changeClients(
      tx,
      `INSERT INTO server_clients (server_id, client_uuid)
       SELECT s, $2 FROM unnest($1::uuid[]) AS s ORDER BY s
       ON CONFLICT DO NOTHING RETURNING server_id`,
      serverIds,
      clientUuid,
    );
  }

  /** Takes one client UUID off several servers inside the caller's transaction. */
  async removeClients(
    tx: Transaction,
    serverIds: readonly string[],
    clientUuid: string,
  ): Promise<string[]> {
    if (serverIds.length === 0) return [];
    return this.changeClients(
      tx,
      `DELETE FROM server_clients WHERE server_id = ANY($1::uuid[]) AND client_uuid = $2
       RETURNING server_id`,
      serverIds,
      clientUuid,
    );
  }

  /**
   * Keeps the client's places but takes its UUID out of (or back into) the sets pushed to the
   * nodes: a paused subscription holds its slots without being able to connect.
   */
  async setClientsEnabled(
    tx: Transaction,
    serverIds: readonly string[],
    clientUuid: string,
    enabled: boolean,
  ): Promise<string[]> {
    if (serverIds.length === 0) return [];
    return this.changeClients(
      tx,
      `UPDATE server_clients SET enabled = ${enabled ? 'TRUE' : 'FALSE'}
       WHERE server_id = ANY($1::uuid[]) AND client_uuid = $2 AND enabled = ${enabled ? 'FALSE' : 'TRUE'}
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
  private async changeClients(
    tx: Transaction,
    change: string,
    serverIds: readonly string[],
    clientUuid: string,
  ): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      tx,
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

  /**
   * Inside the caller's transaction: locks the servers' client sets in id order, refuses
   * (ClientSetRefusal) the first server, in the order given, that does not exist or whose places
   * (every client there, paused ones too) have reached its capacity; else adds `clientUuid` to
   * every set, bumps the changed sets' versions and notifies the nodes' channel at commit.
   * Answers the servers whose set changed (id order).
   */
  async take(
    manager: Transaction,
    places: readonly WantedPlace[],
    clientUuid: string,
  ): Promise<string[]> {
    if (places.length === 0) return [];
    try {
      const rows = await queryRows<{ changed: string[] }>(
        manager,
        `SELECT client_sets_take($1::jsonb, $2, $3) AS changed`,
        [JSON.stringify(places), clientUuid, CLIENT_SET_CHANNEL],
      );
      return rows[0]!.changed;
    } catch (error) {
      const state = sqlState(error);
      if (state === 'SCN04') throw new ClientSetRefusal('server_not_found', errorMessage(error));
      if (state === 'SCN09') throw new ClientSetRefusal('server_full', errorMessage(error));
      throw error;
    }
  }
}

/** The database's message (RAISE ... MESSAGE: here the refused server's id). */
function errorMessage(error: unknown): string {
  const driverError = error instanceof QueryFailedError ? error.driverError : error;
  return (driverError as { message?: string }).message ?? '';
}
