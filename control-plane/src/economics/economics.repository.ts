import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';
import { RELIABILITY } from '../reliability/reliability';
import { GENESIS_REF, rewardRef, stakingIncomeRef } from '../rewards/reward-payouts';

/** What the live economy is made of, read in one round trip. */
export interface EconomyFacts {
  poolMicro: bigint;
  genesisAt: Date | null;
  lastMonthPaidMicro: bigint;
  totalPaidMicro: bigint;
  totalInflowMicro: bigint;
  servers: number;
  reportingServers: number;
  hiddenServers: number;
  /** Sum of reliability_at_report over the reporting servers. */
  reportingReliabilitySum: number;
  totalStakeMicro: bigint;
  stakers: number;
}

/**
 * The only DB access of the live economy: sums over the ledger and the servers, as
 * their owners publish them (wallet_movements, wallet_balances, server_directory).
 */
@Injectable()
export class EconomicsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The pool's entries (the system account is summed when read), the stakes (kept balances),
   * and the servers' counts. What the pool paid for `lastPeriod` (the last ended month) is the
   * pool's side of that period's payout, as the rewards engine writes it: the movements named
   * `reward:<serverId>:<period>` and `stake-income:<owner>:<period>` (reward-payouts), whenever
   * they were paid.
   */
  async facts(now: Date, lastPeriod: string): Promise<EconomyFacts> {
    const [row] = await queryRows<Record<string, string | Date | null>>(
      this.dataSource,
      `WITH pool AS (
         SELECT amount_micro, type, external_ref FROM wallet_movements
         WHERE account_kind = 'reward_pool')
       SELECT
         (SELECT COALESCE(sum(amount_micro), 0) FROM pool)::text AS pool,
         (SELECT transaction_created_at FROM wallet_movements WHERE external_ref = $2 LIMIT 1)
           AS genesis_at,
         (SELECT COALESCE(-sum(amount_micro), 0) FROM pool
            WHERE amount_micro < 0 AND type IN ('monthly_reward', 'staking_reward')
              AND external_ref LIKE ANY($3::text[]))::text AS last_month_paid,
         (SELECT COALESCE(-sum(amount_micro), 0) FROM pool WHERE amount_micro < 0)::text AS total_paid,
         (SELECT COALESCE(sum(amount_micro), 0) FROM pool
            WHERE amount_micro > 0 AND type <> 'genesis')::text AS total_inflow,
         (SELECT count(*) FROM server_directory WHERE banned_at IS NULL)::text AS servers,
         (SELECT count(*) FROM server_directory WHERE banned_at IS NULL
            AND last_report_at > $1::timestamptz - make_interval(secs => $4))::text AS reporting,
         (SELECT count(*) FROM server_directory WHERE banned_at IS NULL
            AND (below_threshold_since IS NOT NULL OR reliability_at_report < $5))::text AS hidden,
         (SELECT COALESCE(sum(reliability_at_report), 0) FROM server_directory WHERE banned_at IS NULL
            AND last_report_at > $1::timestamptz - make_interval(secs => $4))::text AS reliability_sum,
         (SELECT COALESCE(sum(balance_micro), 0) FROM wallet_balances WHERE kind = 'stake')::text
           AS total_stake,
         (SELECT count(*) FROM wallet_balances WHERE kind = 'stake' AND balance_micro > 0)::text
           AS stakers`,
      [
        now,
        GENESIS_REF,
        [rewardRef('%', lastPeriod), stakingIncomeRef('%', lastPeriod)],
        RELIABILITY.staleAfterMs / 1000,
        RELIABILITY.hideBelow,
      ],
    );
    const text = (key: string) => String(row?.[key] ?? '0');
    return {
      poolMicro: BigInt(text('pool')),
      genesisAt: (row?.genesis_at as Date | null) ?? null,
      lastMonthPaidMicro: BigInt(text('last_month_paid')),
      totalPaidMicro: BigInt(text('total_paid')),
      totalInflowMicro: BigInt(text('total_inflow')),
      servers: Number(text('servers')),
      reportingServers: Number(text('reporting')),
      hiddenServers: Number(text('hidden')),
      reportingReliabilitySum: Number(text('reliability_sum')),
      totalStakeMicro: BigInt(text('total_stake')),
      stakers: Number(text('stakers')),
    };
  }
}
