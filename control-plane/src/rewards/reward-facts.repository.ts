import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { VpsTierId } from '@scn/proto';
import type { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';
import { historyDaysSql } from '../reliability-history/reliability-history.repository';
import { GENESIS_REF } from './reward-payouts';

/**
 * The facts a period's statements are computed from, each read with one set-based query for the
 * whole network (or one operator: `owner`). Read-only: the reliability history
 * (server_reliability_days, written by the reliability-history domain), the servers' state, the
 * ledger (stakes, subscription rewards, the pool) and the operators' settings.
 */

/** One server's reliability over the period, with what its row says now (null: deleted). */
export interface ServerFactsRow {
  serverId: string;
  ownerUuid: string;
  tier: VpsTierId | null;
  observedSeconds: number;
  reliabilitySeconds: bigint;
  belowSeconds: number;
  server: {
    createdAt: Date;
    hardwareSince: Date | null;
    bannedAt: Date | null;
    belowThresholdSince: Date | null;
  } | null;
}

export interface OperatorFacts {
  autoStakePercent: number;
  stakeAtStartMicro: bigint;
  stakeAtEndMicro: bigint;
  /** Sum of requiredStakeMicro over the operator's statements of earlier periods. */
  requiredBeforeMicro: bigint;
}

export interface SubscriptionLine {
  clients: number;
  micro: bigint;
}

export interface FactsWindow {
  /** The period's first day and the next period's (dates, `YYYY-MM-DD`). */
  startDay: string;
  endDay: string;
  start: Date;
  /** The end of the facts: the period's end, or now for a dry run. */
  until: Date;
}

const NIL = '00000000-0000-0000-0000-000000000000';

@Injectable()
export class RewardFactsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Every server with history in the period (or the operator's existing servers). */
  async serverFacts(window: FactsWindow, owner: string | null): Promise<ServerFactsRow[]> {
    const rows = await queryRows<{
      server_id: string;
      owner_uuid: string;
      tier: VpsTierId | null;
      observed: number;
      reliability: string;
      below: number;
      present: boolean;
      created_at: Date | null;
      hardware_since: Date | null;
      banned_at: Date | null;
      below_threshold_since: Date | null;
    }>(
      this.dataSource,
      `WITH f AS (
         SELECT d.server_id, sum(d.observed_seconds)::int AS observed,
                sum(d.reliability_seconds)::text AS reliability, sum(d.below_seconds)::int AS below,
                -- A server's owner and tier never change (the tier is chosen at enrollment): any
                -- day's will do, and plain aggregates keep this one hash aggregate (-- a 31-day month of 100,000 nodes in about 2 s).
                min(d.owner_uuid::text)::uuid AS owner_uuid, max(d.tier) AS tier
         FROM (${historyDaysSql(
           '$1',
           '$2',
           '($3::uuid IS NULL OR server_id IN (SELECT id FROM server_directory WHERE owner_uuid = $3))',
         )}) d
         GROUP BY d.server_id)
       SELECT f.*, s.id IS NOT NULL AS present, s.created_at, s.hardware_since, s.banned_at,
              s.below_threshold_since
       FROM f LEFT JOIN server_directory s ON s.id = f.server_id`,
      [window.startDay, window.endDay, owner],
    );
    return rows.map((row) => ({
      serverId: row.server_id,
      ownerUuid: row.owner_uuid,
      tier: row.tier,
      observedSeconds: row.observed,
      reliabilitySeconds: BigInt(row.reliability),
      belowSeconds: row.below,
      server: row.present
        ? {
            createdAt: row.created_at!,
            hardwareSince: row.hardware_since,
            bannedAt: row.banned_at,
            belowThresholdSince: row.below_threshold_since,
          }
        : null,
    }));
  }

  /**
   * Per operator: the auto-stake percent (0 without settings), the stake account's balance at the
   * start and at `until` (its entries created before each instant), and what halving protection
   * asked over earlier periods. Operators with none of these are absent.
   */
  async operatorFacts(
    window: FactsWindow,
    periodDay: string,
    owner: string | null,
  ): Promise<Map<string, OperatorFacts>> {
    const facts = new Map<string, OperatorFacts>();
    const of = (uuid: string): OperatorFacts => {
      let found = facts.get(uuid);
      if (!found) {
        found = {
          autoStakePercent: 0,
          stakeAtStartMicro: 0n,
          stakeAtEndMicro: 0n,
          requiredBeforeMicro: 0n,
        };
        facts.set(uuid, found);
      }
      return found;
    };
    const settings = await queryRows<{ owner_uuid: string; auto_stake_percent: number }>(
      this.dataSource,
      `SELECT owner_uuid, auto_stake_percent FROM auto_stake_settings
       WHERE auto_stake_percent > 0 AND ($1::uuid IS NULL OR owner_uuid = $1)`,
      [owner],
    );
    for (const row of settings) of(row.owner_uuid).autoStakePercent = row.auto_stake_percent;
    const stakes = await queryRows<{ owner_uuid: string; at_start: string; at_end: string }>(
      this.dataSource,
      `SELECT m.owner_uuid,
              COALESCE(sum(m.amount_micro) FILTER (WHERE m.created_at < $1), 0)::text AS at_start,
              COALESCE(sum(m.amount_micro) FILTER (WHERE m.created_at < $2), 0)::text AS at_end
       FROM wallet_movements m
       WHERE m.account_kind = 'stake' AND ($3::uuid IS NULL OR m.owner_uuid = $3)
       GROUP BY m.owner_uuid`,
      [window.start, window.until, owner],
    );
    for (const row of stakes) {
      const found = of(row.owner_uuid);
      found.stakeAtStartMicro = BigInt(row.at_start);
      found.stakeAtEndMicro = BigInt(row.at_end);
    }
    const required = await queryRows<{ owner_uuid: string; required: string }>(
      this.dataSource,
      `SELECT owner_uuid, sum(required_stake_micro)::text AS required FROM reward_statements
       WHERE period < $1::date AND ($2::uuid IS NULL OR owner_uuid = $2)
       GROUP BY owner_uuid`,
      [periodDay, owner],
    );
    for (const row of required) of(row.owner_uuid).requiredBeforeMicro = BigInt(row.required);
    return facts;
  }

  /**
   * Subscription rewards of the period per server (docs/product/constants.md#billing-and-the-economy: clients x 10). A reward is paid
   * per subscription and operator (ledger `subscription_reward`, its server_count the operator's
   * servers in the subscription), so it is attributed by membership: each of the operator's
   * servers the subscription holds or held (subscription_servers, subscription_server_drops) gets
   * the reward / server_count; a subscription counts as one client of each such server. A
   * deleted server's rewards are not attributed (its membership rows are gone).
   */
  async subscriptionLines(
    window: FactsWindow,
    owner: string | null,
  ): Promise<Map<string, SubscriptionLine>> {
    const rows = await queryRows<{ server_id: string; clients: number; micro: string }>(
      this.dataSource,
      `WITH r AS (
         SELECT m.subscription_id, m.owner_uuid, m.amount_micro / m.server_count AS per_server
         FROM wallet_movements m
         WHERE m.type = 'subscription_reward' AND m.transaction_created_at >= $1
           AND m.transaction_created_at < $2 AND m.amount_micro > 0
           AND m.account_kind = 'node_wallet' AND m.server_count > 0
           AND ($3::uuid IS NULL OR m.owner_uuid = $3))
       SELECT m.server_id, count(DISTINCT r.subscription_id)::int AS clients,
              sum(r.per_server)::text AS micro
       FROM r JOIN subscription_server_history m ON m.subscription_id = r.subscription_id
         JOIN server_directory s ON s.id = m.server_id AND s.owner_uuid = r.owner_uuid
       GROUP BY m.server_id`,
      [window.start, window.until, owner],
    );
    return new Map(
      rows.map((row) => [row.server_id, { clients: row.clients, micro: BigInt(row.micro) }]),
    );
  }

  /**
   * docs/product/constants.md#billing-and-the-economy ad bonus: the share-and-earn rewards each operator's node wallet
   * received in the window (paid, so already in the ledger), by operator.
   */
  async adBonusLines(window: FactsWindow, owner: string | null): Promise<Map<string, bigint>> {
    const rows = await queryRows<{ owner_uuid: string; micro: string }>(
      this.dataSource,
      `SELECT m.owner_uuid, sum(m.amount_micro)::text AS micro
       FROM wallet_movements m
       WHERE m.type = 'social_reward' AND m.transaction_created_at >= $1
         AND m.transaction_created_at < $2 AND m.amount_micro > 0
         AND m.account_kind = 'node_wallet' AND ($3::uuid IS NULL OR m.owner_uuid = $3)
       GROUP BY m.owner_uuid`,
      [window.start, window.until, owner],
    );
    return new Map(rows.map((row) => [row.owner_uuid, BigInt(row.micro)]));
  }

  /** The reward pool's balance now (a system account: the sum of its entries). */
  async poolBalanceMicro(): Promise<bigint> {
    const rows = await queryRows<{ total: string }>(
      this.dataSource,
      `SELECT COALESCE(sum(m.amount_micro), 0)::text AS total
       FROM wallet_movements m
       WHERE m.account_id =
         (SELECT account_id FROM wallet_balances WHERE kind = 'reward_pool' AND owner_uuid = $1)`,
      [NIL],
    );
    return BigInt(rows[0]?.total ?? '0');
  }

  /** When the pool was minted (the genesis transaction): month 0 of the reward cycle. */
  async genesisAt(): Promise<Date | null> {
    const rows = await queryRows<{ created_at: Date }>(
      this.dataSource,
      `SELECT transaction_created_at AS created_at FROM wallet_movements
       WHERE external_ref = $1 LIMIT 1`,
      [GENESIS_REF],
    );
    return rows[0]?.created_at ?? null;
  }
}
