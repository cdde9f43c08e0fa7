import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';
import type { Transaction } from '../database/transaction-runner';
import type { ClientNetwork } from './replacement-rules';
import {
  SERVER_COLUMNS,
  type SubscribableServer,
  type SubscriptionRecord,
  serverFromRow,
  subscriptionFromRow,
} from './subscriptions.repository';

/** A replacement as the client's dashboard shows it. */
export interface ReplacementRecord {
  blockedServerName: string;
  replacementServerName: string;
  country: string;
  asn: number;
  replacedAt: Date;
}

/** A server that could replace a blocked one, with what the market and reachability say of it. */
export interface CandidateRow {
  server: SubscribableServer;
  listed: boolean;
  freePlaces: number;
  worksScore: number;
  pingMs: number | null;
}

/** The DB access of replacements (docs/reachability.md#replacements). Writers take the caller's transaction. */
@Injectable()
export class ServerReplacementsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Active, paid subscriptions whose client was seen since `seenSince` and one of whose servers
   * is estimated blocked somewhere in the client's country (keyset on id, after `afterId`;
   * optionally only subscriptions of `serverIds`): the candidates. The rule is checked again,
   * with the reachability reader, under the subscription's lock.
   */
  async due(
    now: Date,
    seenSince: Date,
    afterId: string,
    limit: number,
    serverIds: readonly string[] | null,
  ): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `SELECT su.id FROM subscriptions su
       WHERE su.status = 'active' AND su.expires_at > $1 AND su.client_seen_at >= $2
         AND su.client_country IS NOT NULL AND su.id > $3
         AND EXISTS (
           SELECT 1 FROM subscription_servers ss
             JOIN reachability_estimates r ON r.server_id = ss.server_id
               AND r.country = su.client_country AND r.state = 'b'
           WHERE ss.subscription_id = su.id
             AND ($5::uuid[] IS NULL OR ss.server_id = ANY($5::uuid[])))
       ORDER BY su.id LIMIT $4`,
      [now, seenSince, afterId, limit, serverIds],
    );
    return rows.map((row) => row.id);
  }

  /**
   * The subscription and where its client was last seen, locked unless someone holds it now
   * (then null: a client's call, or another run, is on it).
   */
  async lock(
    tx: Transaction,
    id: string,
  ): Promise<{ record: SubscriptionRecord; client: ClientNetwork } | null> {
    const rows = await queryRows<Record<string, unknown>>(
      tx,
      `SELECT * FROM subscriptions WHERE id = $1 FOR UPDATE SKIP LOCKED`,
      [id],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      record: subscriptionFromRow(row),
      client: {
        country: (row.client_country as string | null)?.trim() ?? null,
        asn: row.client_asn as number | null,
        seenAt: row.client_seen_at as Date | null,
      },
    };
  }

  /**
   * These servers with their market listing (listed, places left), ping and 'works' score from
   * the network (0 without an estimate there). Premium: owned by `platformEmail`.
   */
  async candidates(
    tx: Transaction,
    serverIds: readonly string[],
    network: { country: string; asn: number },
    platformEmail: string | null,
  ): Promise<CandidateRow[]> {
    if (serverIds.length === 0) return [];
    const rows = await queryRows<Record<string, unknown>>(
      tx,
      `SELECT ${SERVER_COLUMNS}, s.ping_ms, COALESCE(l.listed, false) AS listed,
              GREATEST(COALESCE(l.capacity - l.allowed_clients, 0), 0) AS free_places,
              COALESCE(r.score, 0) AS works_score
       FROM server_directory s JOIN account_directory a ON a.uuid = s.owner_uuid
         LEFT JOIN listing_directory l ON l.server_id = s.id
         LEFT JOIN reachability_estimates r ON r.server_id = s.id AND r.country = $3 AND r.asn = $4
       WHERE s.id = ANY($1::uuid[])`,
      [serverIds, platformEmail, network.country, network.asn],
    );
    return rows.map((row) => ({
      server: serverFromRow(row),
      listed: row.listed as boolean,
      freePlaces: row.free_places as number,
      worksScore: row.works_score as number,
      pingMs: row.ping_ms as number | null,
    }));
  }

  /**
   * Since when the server has been blocked in the client's network: its estimate there, else
   * the latest `blocked_since` among its country's blocked estimates (the reader may have
   * answered from the country's agreement); null when none says.
   */
  async blockedSince(
    tx: Transaction,
    serverId: string,
    network: { country: string; asn: number },
  ): Promise<Date | null> {
    const rows = await queryRows<{ since: Date | null }>(
      tx,
      `SELECT COALESCE(
         (SELECT blocked_since FROM reachability_estimates
          WHERE server_id = $1 AND country = $2 AND asn = $3 AND state = 'b'),
         (SELECT max(blocked_since) FROM reachability_estimates
          WHERE server_id = $1 AND country = $2 AND state = 'b')) AS since`,
      [serverId, network.country, network.asn],
    );
    return rows[0]?.since ?? null;
  }

  /**
   * Records the replacement unless this server was already replaced in this subscription and
   * period (the unique key): false then, and the caller must move nothing.
   */
  async insert(
    tx: Transaction,
    row: {
      id: string;
      subscriptionId: string;
      blocked: { id: string; name: string };
      replacement: { id: string; name: string };
      country: string;
      asn: number;
      periodIndex: number;
      replacedAt: Date;
      movedMicro: bigint;
    },
  ): Promise<boolean> {
    const inserted = await queryRows<{ id: string }>(
      tx,
      `INSERT INTO subscription_replacements (id, subscription_id, blocked_server_id,
         blocked_server_name, replacement_server_id, replacement_server_name, country, asn,
         period_index, replaced_at, moved_micro)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (subscription_id, blocked_server_id, period_index) DO NOTHING RETURNING id`,
      [
        row.id,
        row.subscriptionId,
        row.blocked.id,
        row.blocked.name,
        row.replacement.id,
        row.replacement.name,
        row.country,
        row.asn,
        row.periodIndex,
        row.replacedAt,
        row.movedMicro.toString(),
      ],
    );
    return inserted.length === 1;
  }

  /** Puts the replacement in the blocked server's place (same position); false if it was not there. */
  async swapServer(
    tx: Transaction,
    subscriptionId: string,
    blockedId: string,
    replacementId: string,
  ): Promise<boolean> {
    const rows = await queryRows<{ server_id: string }>(
      tx,
      `UPDATE subscription_servers SET server_id = $3
       WHERE subscription_id = $1 AND server_id = $2 RETURNING server_id`,
      [subscriptionId, blockedId, replacementId],
    );
    return rows.length === 1;
  }

  /**
   * Runs `work` in a savepoint of `tx`: when it throws, what it did is rolled back and the
   * transaction goes on (a full candidate server, then the next one is tried).
   */
  async attempt<T>(tx: Transaction, work: () => Promise<T>): Promise<T> {
    await tx.query('SAVEPOINT replacement_attempt');
    try {
      const result = await work();
      await tx.query('RELEASE SAVEPOINT replacement_attempt');
      return result;
    } catch (error) {
      await tx.query('ROLLBACK TO SAVEPOINT replacement_attempt');
      throw error;
    }
  }

  /** The replacements of each subscription's current period, oldest first. */
  async listFor(subscriptionIds: readonly string[]): Promise<Map<string, ReplacementRecord[]>> {
    const result = new Map<string, ReplacementRecord[]>(subscriptionIds.map((id) => [id, []]));
    if (subscriptionIds.length === 0) return result;
    const rows = await queryRows<{
      subscription_id: string;
      blocked_server_name: string;
      replacement_server_name: string;
      country: string;
      asn: number;
      replaced_at: Date;
    }>(
      this.dataSource,
      `SELECT r.subscription_id, r.blocked_server_name, r.replacement_server_name, r.country,
              r.asn, r.replaced_at
       FROM subscription_replacements r JOIN subscriptions su ON su.id = r.subscription_id
       WHERE r.subscription_id = ANY($1::uuid[]) AND r.period_index = su.period_index
       ORDER BY r.replaced_at, r.id`,
      [subscriptionIds],
    );
    for (const row of rows) {
      result.get(row.subscription_id)?.push({
        blockedServerName: row.blocked_server_name,
        replacementServerName: row.replacement_server_name,
        country: row.country,
        asn: row.asn,
        replacedAt: row.replaced_at,
      });
    }
    return result;
  }
}
