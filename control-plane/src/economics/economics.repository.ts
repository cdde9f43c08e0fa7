import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';
import { RELIABILITY } from '../reliability/reliability';

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

/** The only DB access of the live economy (issue 18 §6): sums over the ledger and the servers. */
@Injectable()
export class EconomicsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The pool's entries (the system account is summed when read), the stakes (kept balances),
   * and the servers' counts. `monthStart` and `lastMonthStart` bound the last completed month.
   */
  async facts(now: Date, lastMonthStart: Date, monthStart: Date): Promise<EconomyFacts> {
    const [row] = await queryRows<Record<string, string | Date | null>>(
      this.dataSource,
      `WITH pool AS (
         SELECT e.amount_micro, e.created_at, t.type
         FROM ledger_entries e
         JOIN ledger_accounts a ON a.id = e.account_id AND a.kind = 'reward_pool'
         JOIN ledger_transactions t ON t.id = e.transaction_id)
       SELECT
         (SELECT COALESCE(sum(amount_micro), 0) FROM pool)::text AS pool,
         (SELECT min(created_at) FROM pool WHERE type = 'genesis') AS genesis_at,
         (SELECT COALESCE(-sum(amount_micro), 0) FROM pool
            WHERE amount_micro < 0 AND created_at >= $2 AND created_at < $3)::text AS last_month_paid,
         (SELECT COALESCE(-sum(amount_micro), 0) FROM pool WHERE amount_micro < 0)::text AS total_paid,
         (SELECT COALESCE(sum(amount_micro), 0) FROM pool
            WHERE amount_micro > 0 AND type <> 'genesis')::text AS total_inflow,
         (SELECT count(*) FROM servers WHERE banned_at IS NULL)::text AS servers,
         (SELECT count(*) FROM servers WHERE banned_at IS NULL
            AND last_report_at > $1::timestamptz - make_interval(secs => $4))::text AS reporting,
         (SELECT count(*) FROM servers WHERE banned_at IS NULL
            AND (below_threshold_since IS NOT NULL OR reliability_at_report < $5))::text AS hidden,
         (SELECT COALESCE(sum(reliability_at_report), 0) FROM servers WHERE banned_at IS NULL
            AND last_report_at > $1::timestamptz - make_interval(secs => $4))::text AS reliability_sum,
         (SELECT COALESCE(sum(balance_micro), 0) FROM ledger_accounts WHERE kind = 'stake')::text
           AS total_stake,
         (SELECT count(*) FROM ledger_accounts WHERE kind = 'stake' AND balance_micro > 0)::text
           AS stakers`,
      [now, lastMonthStart, monthStart, RELIABILITY.staleAfterMs / 1000, RELIABILITY.hideBelow],
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
