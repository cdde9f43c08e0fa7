import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { VpsTierId } from '@scn/proto';
import type { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';

/** One of the operator's servers as staking shows it. */
export interface StakingServerRow {
  id: string;
  name: string;
  tier: VpsTierId | null;
  createdAt: Date;
  hardwareSince: Date | null;
  halvingCut: boolean;
}

/** What halving protection asks of the operator so far (see StakingRepository.requirements). */
export interface StakeRequirements {
  /** Per server id: the sum of its statements' requirement. */
  byServer: Map<string, bigint>;
  /** Over every statement of the operator, a deleted server's included. */
  totalMicro: bigint;
}

/**
 * The only SQL of staking. Every read is scoped by the operator (`ownerUuid`); the wallet's
 * balances and frozen lots are read through WalletService, the movements written by LedgerService.
 */
@Injectable()
export class StakingRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async autoStakePercent(ownerUuid: string): Promise<number> {
    const rows = await queryRows<{ auto_stake_percent: number }>(
      this.dataSource,
      `SELECT auto_stake_percent FROM operator_economy_settings WHERE owner_uuid = $1`,
      [ownerUuid],
    );
    return rows[0]?.auto_stake_percent ?? 0;
  }

  async setAutoStakePercent(ownerUuid: string, percent: number, now: Date): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO operator_economy_settings (owner_uuid, auto_stake_percent, updated_at)
       VALUES ($1, $2, $3)
       ON CONFLICT (owner_uuid) DO UPDATE SET auto_stake_percent = EXCLUDED.auto_stake_percent,
         updated_at = EXCLUDED.updated_at`,
      [ownerUuid, percent, now],
    );
  }

  /** The operator's servers (agent and manual), oldest first. */
  async servers(ownerUuid: string): Promise<StakingServerRow[]> {
    const rows = await queryRows<{
      id: string;
      name: string;
      tier: VpsTierId | null;
      created_at: Date;
      hardware_since: Date | null;
      halving_cut: boolean;
    }>(
      this.dataSource,
      `SELECT id, name, tier, created_at, hardware_since, halving_cut FROM server_directory
       WHERE owner_uuid = $1 ORDER BY created_at, id`,
      [ownerUuid],
    );
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      tier: r.tier,
      createdAt: r.created_at,
      hardwareSince: r.hardware_since,
      halvingCut: r.halving_cut,
    }));
  }

  /**
   * docs/product/states.md#subscription-and-reliability-states, docs/product/constants.md#billing-and-the-economy halving protection, as the rewards engine decides it: the requirement each
   * monthly statement added (`reward_statements.required_stake_micro`, its node income times the
   * share of the node's year, stored when its period is computed), summed per server and over
   * all of the operator's statements. The total is the figure the engine compares the stake
   * with when it computes the next period (RewardFactsRepository.operatorFacts sums the same
   * column over the operator's earlier statements), so the dashboard shows exactly that.
   */
  async requirements(ownerUuid: string): Promise<StakeRequirements> {
    const rows = await queryRows<{ server_id: string; required: string }>(
      this.dataSource,
      `SELECT server_id, sum(required_stake_micro)::text AS required FROM stake_requirements
       WHERE owner_uuid = $1 GROUP BY server_id`,
      [ownerUuid],
    );
    const byServer = new Map(rows.map((r) => [r.server_id, BigInt(r.required)]));
    let totalMicro = 0n;
    for (const required of byServer.values()) totalMicro += required;
    return { byServer, totalMicro };
  }
}
