import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type BillingCycle, canonicalUuid, type PauseReason, type VpsTierId } from '@scn/proto';
import type { DataSource } from 'typeorm';
import { queryPrepared, queryRows } from '../common/sql';
import type { Transaction } from '../database/transaction-runner';
import type { SubscriptionState } from './entities/subscription.entity';
import type { LinkedServer } from './subscription-links';

/** An id that is not a uuid names no subscription (and would not cast to the column's type). */

/** A subscription row as the rules read it. */
export interface SubscriptionRecord {
  id: string;
  ownerUuid: string;
  vlessUuid: string;
  status: SubscriptionState;
  billingCycle: BillingCycle;
  autoRenew: boolean;
  periodIndex: number;
  expiresAt: Date;
  pausedAt: Date | null;
  pauseEndsAt: Date | null;
  pauseReason: PauseReason | null;
  urlTokenHash: string | null;
  urlTokenSealed: string | null;
  createdAt: Date;
}

/** A server with what a purchase checks (availability, capacity) and what its link needs. */
export interface SubscribableServer extends LinkedServer {
  ownerUuid: string;
  tier: VpsTierId | null;
  coreState: string | null;
  reliabilityAtReport: number;
  lastReportAt: Date | null;
  lastCreditedAt: Date | null;
  belowThresholdSince: Date | null;
  bannedAt: Date | null;
}

type SubscriptionChanges = Partial<
  Pick<
    SubscriptionRecord,
    | 'status'
    | 'billingCycle'
    | 'periodIndex'
    | 'expiresAt'
    | 'pausedAt'
    | 'pauseEndsAt'
    | 'pauseReason'
    | 'urlTokenHash'
    | 'urlTokenSealed'
    | 'autoRenew'
  >
> & { deletedAt?: Date | null };

const COLUMN_OF: Record<keyof SubscriptionChanges, string> = {
  status: 'status',
  billingCycle: 'billing_cycle',
  periodIndex: 'period_index',
  expiresAt: 'expires_at',
  pausedAt: 'paused_at',
  pauseEndsAt: 'pause_ends_at',
  pauseReason: 'pause_reason',
  urlTokenHash: 'url_token_hash',
  urlTokenSealed: 'url_token_sealed',
  deletedAt: 'deleted_at',
  autoRenew: 'auto_renew',
};

/** Where a feed's requester is, to record on an active subscription (recordClientNetwork). */
export interface FeedSighting {
  country: string;
  asn: number;
  now: Date;
  /** A sighting of the same network older than this is written again. */
  refreshBefore: Date;
}

/** What one feed request reads (SubscriptionsRepository.feedSnapshot). */
export interface FeedSnapshot {
  record: SubscriptionRecord;
  /** Changes whenever anything the feed takes from its servers does ('' with none). */
  serversStamp: string;
  uploadBytes: string;
  downloadBytes: string;
  /** The client's network as recorded once this read is done (null: none recorded). */
  seen: { country: string; asn: number; at: Date } | null;
}

export function subscriptionFromRow(row: Record<string, unknown>): SubscriptionRecord {
  return {
    id: row.id as string,
    ownerUuid: row.owner_uuid as string,
    vlessUuid: row.vless_uuid as string,
    status: row.status as SubscriptionState,
    billingCycle: row.billing_cycle as BillingCycle,
    autoRenew: row.auto_renew as boolean,
    periodIndex: row.period_index as number,
    expiresAt: row.expires_at as Date,
    pausedAt: row.paused_at as Date | null,
    pauseEndsAt: row.pause_ends_at as Date | null,
    pauseReason: row.pause_reason as PauseReason | null,
    urlTokenHash: row.url_token_hash as string | null,
    urlTokenSealed: row.url_token_sealed as string | null,
    createdAt: row.created_at as Date,
  };
}

export const SERVER_COLUMNS = `s.id, s.owner_uuid, s.name, s.source, s.host, s.port, s.inbound, s.vless_string,
  s.country, s.tier, s.core_state, s.reliability_at_report, s.last_report_at, s.last_credited_at,
  s.below_threshold_since, s.banned_at, s.certificate_pem, COALESCE(a.email = $2::text, false) AS premium`;

export function serverFromRow(row: Record<string, unknown>): SubscribableServer {
  return {
    id: row.id as string,
    ownerUuid: row.owner_uuid as string,
    name: row.name as string,
    source: row.source as 'agent' | 'manual',
    host: row.host as string | null,
    port: row.port as number | null,
    inbound: (row.inbound as Record<string, string> | null) ?? {},
    vlessString: row.vless_string as string | null,
    certificatePem: (row.certificate_pem as string | null) ?? null,
    country: row.country as string | null,
    premium: row.premium as boolean,
    tier: row.tier as VpsTierId | null,
    coreState: row.core_state as string | null,
    reliabilityAtReport: row.reliability_at_report as number,
    lastReportAt: row.last_report_at as Date | null,
    lastCreditedAt: row.last_credited_at as Date | null,
    belowThresholdSince: row.below_threshold_since as Date | null,
    bannedAt: row.banned_at as Date | null,
  };
}

/** The only DB access for subscriptions. Writers take the caller's transaction. */
@Injectable()
export class SubscriptionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The servers as a purchase checks them, without locks. */
  async readServers(
    serverIds: readonly string[],
    platformEmail: string | null,
  ): Promise<SubscribableServer[]> {
    const rows = await queryRows<Record<string, unknown>>(
      this.dataSource,
      `SELECT ${SERVER_COLUMNS}
       FROM server_directory s JOIN account_directory a ON a.uuid = s.owner_uuid
       WHERE s.id = ANY($1::uuid[])`,
      [serverIds, platformEmail],
    );
    return rows.map(serverFromRow);
  }

  /**
   * Reads the servers and locks their client sets (id order, so purchases cannot deadlock on
   * them) until the transaction ends: the capacity check that follows then sees every committed
   * client of theirs. The `servers` rows themselves are not locked, so agent report batches
   * never wait for a purchase. Premium means owned by the platform operator account
   * (`platformEmail`).
   */
  async lockServers(
    manager: Transaction,
    serverIds: readonly string[],
    platformEmail: string | null,
  ): Promise<SubscribableServer[]> {
    const rows = await queryRows<Record<string, unknown>>(
      manager,
      `SELECT ${SERVER_COLUMNS}
       FROM server_directory s JOIN account_directory a ON a.uuid = s.owner_uuid
       JOIN client_set_versions cs ON cs.server_id = s.id
       WHERE s.id = ANY($1::uuid[]) ORDER BY s.id FOR NO KEY UPDATE OF cs`,
      [serverIds, platformEmail],
    );
    return rows.map(serverFromRow);
  }

  /** The ids among `serverIds` on which the owner has an active or paused subscription. */
  async subscribedAmong(ownerUuid: string, serverIds: readonly string[]): Promise<Set<string>> {
    const rows = await queryRows<{ server_id: string }>(
      this.dataSource,
      `SELECT DISTINCT ss.server_id FROM subscription_servers ss
       JOIN subscriptions su ON su.id = ss.subscription_id
       WHERE su.owner_uuid = $1 AND su.status IN ('active', 'paused') AND ss.server_id = ANY($2::uuid[])`,
      [ownerUuid, serverIds],
    );
    return new Set(rows.map((row) => row.server_id));
  }

  /** Owner-scoped and locked until the transaction ends; deleted ones are not found. */
  async lockOwned(
    manager: Transaction,
    ownerUuid: string,
    id: string,
  ): Promise<SubscriptionRecord | null> {
    if (canonicalUuid(id) !== id) return null;
    const rows = await queryRows<Record<string, unknown>>(
      manager,
      `SELECT * FROM subscriptions
       WHERE id = $1 AND owner_uuid = $2 AND status <> 'deleted' FOR UPDATE`,
      [id, ownerUuid],
    );
    return rows[0] ? subscriptionFromRow(rows[0]) : null;
  }

  /** For the billing job: locked unless a client's call holds it now (then it waits a minute). */
  async lockForJob(manager: Transaction, id: string): Promise<SubscriptionRecord | null> {
    const rows = await queryRows<Record<string, unknown>>(
      manager,
      `SELECT * FROM subscriptions WHERE id = $1 FOR UPDATE SKIP LOCKED`,
      [id],
    );
    return rows[0] ? subscriptionFromRow(rows[0]) : null;
  }

  /** Owner-scoped; deleted ones are not found. */
  async findOwned(ownerUuid: string, id: string): Promise<SubscriptionRecord | null> {
    if (canonicalUuid(id) !== id) return null;
    const rows = await queryRows<Record<string, unknown>>(
      this.dataSource,
      `SELECT * FROM subscriptions WHERE id = $1 AND owner_uuid = $2 AND status <> 'deleted'`,
      [id, ownerUuid],
    );
    return rows[0] ? subscriptionFromRow(rows[0]) : null;
  }

  async findByUrlHash(hash: string): Promise<SubscriptionRecord | null> {
    const rows = await queryRows<Record<string, unknown>>(
      this.dataSource,
      `SELECT * FROM subscriptions WHERE url_token_hash = $1 AND status <> 'deleted'`,
      [hash],
    );
    return rows[0] ? subscriptionFromRow(rows[0]) : null;
  }

  /**
   * The feed's one read (docs/architecture.md#subscription-feed): the subscription by its URL
   * hash, a stamp of exactly what the feed takes from its servers (their order and link columns,
   * not the per-report ones, so a report does not invalidate a cached feed), the bytes it moved,
   * and, given a sighting, the client's network written as `recordClientNetwork` would (in the
   * same statement). Unknown and deleted: null.
   */
  async feedSnapshot(
    hash: string,
    platformEmail: string | null,
    sighting: FeedSighting | null,
  ): Promise<FeedSnapshot | null> {
    const rows = await queryPrepared<Record<string, unknown>>(
      this.dataSource,
      `WITH sub AS (SELECT * FROM subscriptions WHERE url_token_hash = $1 AND status <> 'deleted'),
       seen AS (
         UPDATE subscriptions u SET client_country = $3, client_asn = $4, client_seen_at = $5
         FROM sub
         WHERE $3::text IS NOT NULL AND u.id = sub.id AND sub.status = 'active'
           AND (u.client_country IS DISTINCT FROM $3 OR u.client_asn IS DISTINCT FROM $4
                OR u.client_seen_at IS NULL OR u.client_seen_at < $6)
         RETURNING u.id)
       SELECT sub.*, (SELECT count(*) FROM seen)::int AS feed_seen_written,
         (SELECT md5(string_agg(row(ss.server_id, s.owner_uuid, s.name, s.source, s.host, s.port,
                   s.inbound, s.vless_string, s.country, s.tier, s.banned_at, s.core_state,
                   s.certificate_pem, COALESCE(a.email = $2::text, false))::text, ',' ORDER BY ss.position))
          FROM subscription_servers ss
            JOIN server_directory s ON s.id = ss.server_id
            JOIN account_directory a ON a.uuid = s.owner_uuid
          WHERE ss.subscription_id = sub.id) AS feed_servers_stamp,
         (SELECT COALESCE(sum(upload_bytes), 0)::text FROM traffic_days t
          WHERE t.subscription_id = sub.id) AS feed_upload_bytes,
         (SELECT COALESCE(sum(download_bytes), 0)::text FROM traffic_days t
          WHERE t.subscription_id = sub.id) AS feed_download_bytes
       FROM sub`,
      [
        hash,
        platformEmail,
        sighting?.country ?? null,
        sighting?.asn ?? null,
        sighting?.now ?? null,
        sighting?.refreshBefore ?? null,
      ],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      record: subscriptionFromRow(row),
      serversStamp: (row.feed_servers_stamp as string | null) ?? '',
      uploadBytes: row.feed_upload_bytes as string,
      downloadBytes: row.feed_download_bytes as string,
      seen:
        sighting && row.feed_seen_written === 1
          ? { country: sighting.country, asn: sighting.asn, at: sighting.now }
          : row.client_country && row.client_seen_at
            ? {
                country: row.client_country as string,
                asn: Number(row.client_asn ?? 0),
                at: row.client_seen_at as Date,
              }
            : null,
    };
  }

  /**
   * The client's network on an active subscription, written as the feed's read does (only when it
   * moved or is older than `refreshBefore`): a feed answered from memory writes it this way.
   */
  async recordClientNetwork(id: string, sighting: FeedSighting): Promise<void> {
    await queryPrepared(
      this.dataSource,
      `UPDATE subscriptions SET client_country = $2, client_asn = $3, client_seen_at = $4
       WHERE id = $1 AND status = 'active'
         AND (client_country IS DISTINCT FROM $2 OR client_asn IS DISTINCT FROM $3
              OR client_seen_at IS NULL OR client_seen_at < $5)`,
      [id, sighting.country, sighting.asn, sighting.now, sighting.refreshBefore],
    );
  }

  /** An account's subscriptions in the given states, newest first. */
  async listOwned(
    ownerUuid: string,
    statuses: readonly SubscriptionState[],
  ): Promise<SubscriptionRecord[]> {
    const rows = await queryRows<Record<string, unknown>>(
      this.dataSource,
      `SELECT * FROM subscriptions WHERE owner_uuid = $1 AND status = ANY($2::text[])
       ORDER BY created_at DESC, id`,
      [ownerUuid, statuses],
    );
    return rows.map(subscriptionFromRow);
  }

  /** The servers of each subscription, in the client's order (in `tx` when given). */
  async serversOf(
    subscriptionIds: readonly string[],
    platformEmail: string | null,
    tx?: Transaction,
  ): Promise<Map<string, SubscribableServer[]>> {
    const result = new Map<string, SubscribableServer[]>(subscriptionIds.map((id) => [id, []]));
    if (subscriptionIds.length === 0) return result;
    const rows = await queryRows<Record<string, unknown>>(
      tx ?? this.dataSource,
      `SELECT ss.subscription_id, ${SERVER_COLUMNS}
       FROM subscription_servers ss
         JOIN server_directory s ON s.id = ss.server_id
         JOIN account_directory a ON a.uuid = s.owner_uuid
       WHERE ss.subscription_id = ANY($1::uuid[])
       ORDER BY ss.subscription_id, ss.position`,
      [subscriptionIds, platformEmail],
    );
    for (const row of rows) result.get(row.subscription_id as string)?.push(serverFromRow(row));
    return result;
  }

  /** The servers of one subscription, in the client's order, in `tx`. */
  async serversFor(
    tx: Transaction,
    subscriptionId: string,
    platformEmail: string | null,
  ): Promise<SubscribableServer[]> {
    const servers = await this.serversOf([subscriptionId], platformEmail, tx);
    return servers.get(subscriptionId) ?? [];
  }

  async update(manager: Transaction, id: string, changes: SubscriptionChanges): Promise<void> {
    const entries = Object.entries(changes) as Array<[keyof SubscriptionChanges, unknown]>;
    const sets = entries.map(([key], i) => `${COLUMN_OF[key]} = $${i + 2}`);
    await manager.query(
      `UPDATE subscriptions SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1`,
      [id, ...entries.map(([, value]) => value)],
    );
  }

  /** Deleted subscriptions keep their row (the ledger names it), not their servers. */
  async dropServers(manager: Transaction, id: string): Promise<void> {
    await manager.query(`DELETE FROM subscription_servers WHERE subscription_id = $1`, [id]);
  }

  async insertPause(
    manager: Transaction,
    pause: { id: string; subscriptionId: string; startedAt: Date; endsAt: Date },
  ): Promise<void> {
    await manager.query(
      `INSERT INTO subscription_pauses (id, subscription_id, started_at, ends_at) VALUES ($1, $2, $3, $4)`,
      [pause.id, pause.subscriptionId, pause.startedAt, pause.endsAt],
    );
  }

  async closePause(manager: Transaction, subscriptionId: string, resumedAt: Date): Promise<void> {
    await manager.query(
      `UPDATE subscription_pauses SET resumed_at = $2
       WHERE subscription_id = $1 AND resumed_at IS NULL`,
      [subscriptionId, resumedAt],
    );
  }

  /** Start times of the client's pauses since `since`, per subscription (in `tx` when given). */
  async pauseStarts(
    subscriptionIds: readonly string[],
    since: Date,
    tx?: Transaction,
  ): Promise<Map<string, Date[]>> {
    const result = new Map<string, Date[]>(subscriptionIds.map((id) => [id, []]));
    if (subscriptionIds.length === 0) return result;
    const rows = await queryRows<{ subscription_id: string; started_at: Date }>(
      tx ?? this.dataSource,
      `SELECT subscription_id, started_at FROM subscription_pauses
       WHERE subscription_id = ANY($1::uuid[]) AND started_at > $2`,
      [subscriptionIds, since],
    );
    for (const row of rows) result.get(row.subscription_id)?.push(row.started_at);
    return result;
  }

  /** Active subscriptions whose paid time has ended, after `afterId` (keyset paging). */
  async dueForRenewal(now: Date, afterId: string, limit: number): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `SELECT id FROM subscriptions
       WHERE status = 'active' AND expires_at <= $1 AND id > $2 ORDER BY id LIMIT $3`,
      [now, afterId, limit],
    );
    return rows.map((row) => row.id);
  }

  /** Client pauses that have reached their end. */
  async dueForResume(now: Date, afterId: string, limit: number): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `SELECT id FROM subscriptions
       WHERE status = 'paused' AND pause_ends_at <= $1 AND id > $2 ORDER BY id LIMIT $3`,
      [now, afterId, limit],
    );
    return rows.map((row) => row.id);
  }
}
