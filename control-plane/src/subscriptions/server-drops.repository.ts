import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ServerDropReason } from '@scn/proto';
import type { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';
import type { Transaction } from '../database/transaction-runner';
import { type SubscriptionRecord, subscriptionFromRow } from './subscriptions.repository';

/** A dropped server as the dashboard shows it. */
export interface ServerDropRecord {
  serverId: string;
  serverName: string;
  reason: ServerDropReason;
  unableSince: Date;
  droppedAt: Date;
  refundMicro: bigint;
}

/** What the client paid for the current period and what the server's operator earned from it. */
export interface PeriodPayment {
  /** The client's payment for the period, all servers. */
  paidMicro: bigint;
  serverCount: number;
  /** The operator's reward for each of its servers in that payment (0: premium or none). */
  rewardPerServerMicro: bigint;
  rewardFrozenUntil: Date | null;
}

/** Ledger transaction types that pay a subscription's period (purchase and renewal, activation, change). */
const PERIOD_PAYMENT_TYPES = ['subscription', 'activation', 'billing_change'];

/** The DB access of server drops. Writers take the caller's transaction. */
@Injectable()
export class ServerDropsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The latest period payment of a subscription (its client's debit) and, from the same database
   * transaction (the rewards are written with the payment, so they share its `created_at`), the
   * reward it paid `operatorUuid` per server.
   */
  async periodPayment(
    manager: Transaction,
    subscriptionId: string,
    operatorUuid: string,
  ): Promise<PeriodPayment | null> {
    const rows = await queryRows<{
      paid: string;
      server_count: number | null;
      reward: string | null;
      reward_servers: number | null;
      frozen_until: Date | null;
    }>(
      manager,
      `WITH pay AS (
         SELECT m.transaction_created_at AS created_at, m.server_count, -m.amount_micro AS paid
         FROM wallet_movements m
         WHERE m.subscription_id = $1 AND m.type = ANY($3::text[]) AND m.amount_micro < 0
           AND m.account_kind = 'client_wallet'
         ORDER BY m.transaction_created_at DESC, m.transaction_id DESC LIMIT 1
       )
       SELECT pay.paid::text AS paid, pay.server_count, r.reward::text AS reward,
              r.server_count AS reward_servers, r.frozen_until
       FROM pay LEFT JOIN LATERAL (
         SELECT m.amount_micro AS reward, m.server_count, m.frozen_until
         FROM wallet_movements m
         WHERE m.subscription_id = $1 AND m.type = 'subscription_reward'
           AND m.transaction_created_at = pay.created_at AND m.amount_micro > 0
           AND m.account_kind = 'node_wallet' AND m.owner_uuid = $2
         LIMIT 1
       ) r ON true`,
      [subscriptionId, operatorUuid, PERIOD_PAYMENT_TYPES],
    );
    const row = rows[0];
    if (!row) return null;
    const rewardServers = row.reward_servers ?? 0;
    return {
      paidMicro: BigInt(row.paid),
      serverCount: row.server_count ?? 0,
      rewardPerServerMicro:
        row.reward && rewardServers > 0 ? BigInt(row.reward) / BigInt(rewardServers) : 0n,
      rewardFrozenUntil: row.frozen_until,
    };
  }

  /**
   * Records the drop unless this server was already dropped from this subscription in this
   * period (the unique key): false then, and the caller must move no money.
   */
  async insert(
    manager: Transaction,
    row: {
      id: string;
      subscriptionId: string;
      serverId: string;
      serverName: string;
      periodIndex: number;
      reason: ServerDropReason;
      unableSince: Date;
      droppedAt: Date;
      refundMicro: bigint;
    },
  ): Promise<boolean> {
    const inserted = await queryRows<{ id: string }>(
      manager,
      `INSERT INTO subscription_server_drops (id, subscription_id, server_id, server_name,
         period_index, reason, unable_since, dropped_at, refund_micro)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (subscription_id, server_id, period_index) DO NOTHING RETURNING id`,
      [
        row.id,
        row.subscriptionId,
        row.serverId,
        row.serverName,
        row.periodIndex,
        row.reason,
        row.unableSince,
        row.droppedAt,
        row.refundMicro.toString(),
      ],
    );
    return inserted.length === 1;
  }

  /** Takes the server out of the subscription; how many servers the subscription has left. */
  async dropServer(
    manager: Transaction,
    subscriptionId: string,
    serverId: string,
  ): Promise<number> {
    const rows = await queryRows<{ left: number }>(
      manager,
      `WITH gone AS (
         DELETE FROM subscription_servers WHERE subscription_id = $1 AND server_id = $2
         RETURNING server_id
       )
       SELECT count(*)::int AS left FROM subscription_servers
       WHERE subscription_id = $1 AND server_id NOT IN (SELECT server_id FROM gone)`,
      [subscriptionId, serverId],
    );
    return rows[0]?.left ?? 0;
  }

  /**
   * The subscriptions (not deleted) that cover a server, locked in id order until the
   * transaction ends: what the server's deletion drops it from.
   */
  async lockSubscriptionsOf(manager: Transaction, serverId: string): Promise<SubscriptionRecord[]> {
    const rows = await queryRows<Record<string, unknown>>(
      manager,
      `SELECT su.* FROM subscriptions su
       JOIN subscription_servers ss ON ss.subscription_id = su.id
       WHERE ss.server_id = $1 AND su.status <> 'deleted'
       ORDER BY su.id FOR UPDATE OF su`,
      [serverId],
    );
    return rows.map(subscriptionFromRow);
  }

  /**
   * Subscriptions (keyset on id, after `afterId`) with a server that is banned or has been under
   * the hide threshold since `hiddenBefore` or earlier: the server drop job's candidates. The
   * rules are checked again, in TypeScript, under the subscription's lock.
   */
  async candidates(hiddenBefore: Date, afterId: string, limit: number): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `SELECT DISTINCT ss.subscription_id AS id
       FROM server_directory s
         JOIN subscription_servers ss ON ss.server_id = s.id
         JOIN subscriptions su ON su.id = ss.subscription_id
       WHERE (s.banned_at IS NOT NULL OR s.below_threshold_since <= $1)
         AND su.status IN ('active', 'paused', 'expired') AND ss.subscription_id > $2
       ORDER BY 1 LIMIT $3`,
      [hiddenBefore, afterId, limit],
    );
    return rows.map((row) => row.id);
  }

  /**
   * A minute job's last run and since when it has run without a gap; null before its first (in
   * `tx` when given).
   */
  async heartbeat(
    job: string,
    tx?: Transaction,
  ): Promise<{ lastRunAt: Date; watchingSince: Date } | null> {
    const rows = await queryRows<{ last_run_at: Date; watching_since: Date }>(
      tx ?? this.dataSource,
      `SELECT last_run_at, watching_since FROM job_heartbeats WHERE job = $1`,
      [job],
    );
    const row = rows[0];
    return row ? { lastRunAt: row.last_run_at, watchingSince: row.watching_since } : null;
  }

  async beat(job: string, now: Date, watchingSince: Date): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO job_heartbeats (job, last_run_at, watching_since) VALUES ($1, $2, $3)
       ON CONFLICT (job) DO UPDATE SET last_run_at = EXCLUDED.last_run_at,
         watching_since = EXCLUDED.watching_since`,
      [job, now, watchingSince],
    );
  }

  /** The dropped servers of each subscription, newest first. */
  async listFor(subscriptionIds: readonly string[]): Promise<Map<string, ServerDropRecord[]>> {
    const result = new Map<string, ServerDropRecord[]>(subscriptionIds.map((id) => [id, []]));
    if (subscriptionIds.length === 0) return result;
    const rows = await queryRows<{
      subscription_id: string;
      server_id: string;
      server_name: string;
      reason: ServerDropReason;
      unable_since: Date;
      dropped_at: Date;
      refund_micro: string;
    }>(
      this.dataSource,
      `SELECT subscription_id, server_id, server_name, reason, unable_since, dropped_at,
              refund_micro::text AS refund_micro
       FROM subscription_server_drops WHERE subscription_id = ANY($1::uuid[])
       ORDER BY dropped_at DESC, server_name`,
      [subscriptionIds],
    );
    for (const row of rows) {
      result.get(row.subscription_id)?.push({
        serverId: row.server_id,
        serverName: row.server_name,
        reason: row.reason,
        unableSince: row.unable_since,
        droppedAt: row.dropped_at,
        refundMicro: BigInt(row.refund_micro),
      });
    }
    return result;
  }
}
