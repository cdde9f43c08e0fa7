import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';
import type { Transaction } from '../database/transaction-runner';
import { RewardRunEntity } from './entities/reward-run.entity';
import { RewardStakingStatementEntity } from './entities/reward-staking-statement.entity';
import { RewardStatementEntity } from './entities/reward-statement.entity';
import type { StakingRow, StatementRow } from './reward-computer';

export type RunRow = { [K in keyof RewardRunEntity]: RewardRunEntity[K] };

/** What paying one statement needs. */
export interface UnpaidStatement {
  serverId: string;
  ownerUuid: string;
  walletMicro: bigint;
  autoStakedMicro: bigint;
  escrowedMicro: bigint;
}

export interface UnpaidStaking {
  ownerUuid: string;
  paidMicro: bigint;
}

/** Staking statements written per INSERT: a JSON parameter of a few MB at most. */
const INSERT_CHUNK = 10_000;

/** camelCase fields to the table's snake_case columns, dates as ISO text, for jsonb_populate_recordset. */
function columns(row: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    out[key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] =
      value instanceof Date ? value.toISOString() : value;
  }
  return out;
}

/** A server of an operator as it is now (for the servers a dry run has no facts of yet). */
export interface OwnedServer {
  id: string;
  name: string;
  tier: string | null;
  bannedAt: Date | null;
  belowThresholdSince: Date | null;
}

/** The monthly runs and their statements: the only SQL that writes them. */
@Injectable()
export class RewardStatementsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  run(periodDay: string): Promise<RewardRunEntity | null> {
    return this.dataSource.getRepository(RewardRunEntity).findOneBy({ period: periodDay });
  }

  /** Periods computed but not fully paid (a run that stopped half way). */
  async unfinishedPeriods(): Promise<string[]> {
    const rows = await queryRows<{ period: string }>(
      this.dataSource,
      `SELECT to_char(period, 'YYYY-MM-DD') AS period FROM reward_runs
       WHERE status = 'computed' ORDER BY period`,
    );
    return rows.map((row) => row.period);
  }

  /**
   * Writes the run and every statement of its period in `manager`'s transaction, and sets each
   * existing server's halving cut to its statement's (the market's capacity reads it). False,
   * with nothing written, when the period already has a run.
   */
  async insertRun(
    manager: Transaction,
    run: RunRow,
    /** The statements, a chunk at a time (built as they are written, so few are held at once). */
    statements: Iterable<readonly StatementRow[]>,
    staking: readonly StakingRow[],
  ): Promise<boolean> {
    const inserted = await queryRows<{ period: string }>(
      manager,
      `INSERT INTO reward_runs
       SELECT * FROM jsonb_populate_recordset(NULL::reward_runs, $1::jsonb)
       ON CONFLICT (period) DO NOTHING RETURNING period`,
      [JSON.stringify([columns(run)])],
    );
    if (inserted.length === 0) return false;
    for (const chunk of statements) {
      await manager.query(
        `INSERT INTO reward_statements
         SELECT * FROM jsonb_populate_recordset(NULL::reward_statements, $1::jsonb)`,
        [JSON.stringify(chunk.map(columns))],
      );
    }
    for (let i = 0; i < staking.length; i += INSERT_CHUNK) {
      await manager.query(
        `INSERT INTO reward_staking_statements
         SELECT * FROM jsonb_populate_recordset(NULL::reward_staking_statements, $1::jsonb)`,
        [JSON.stringify(staking.slice(i, i + INSERT_CHUNK).map(columns))],
      );
    }
    await manager.query(
      `UPDATE servers s SET halving_cut = r.halving_cut
       FROM reward_statements r
       WHERE r.period = $1::date AND r.server_id = s.id AND s.halving_cut <> r.halving_cut`,
      [run.period],
    );
    return true;
  }

  /** Locks up to `limit` unpaid statements of the period, skipping rows another payer holds. */
  async lockUnpaid(
    manager: Transaction,
    periodDay: string,
    limit: number,
  ): Promise<UnpaidStatement[]> {
    const rows = await queryRows<{
      server_id: string;
      owner_uuid: string;
      wallet_micro: string;
      auto_staked_micro: string;
      escrowed_micro: string;
    }>(
      manager,
      `SELECT server_id, owner_uuid, wallet_micro, auto_staked_micro, escrowed_micro
       FROM reward_statements WHERE period = $1::date AND status = 'computed'
       ORDER BY server_id LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [periodDay, limit],
    );
    return rows.map((row) => ({
      serverId: row.server_id,
      ownerUuid: row.owner_uuid,
      walletMicro: BigInt(row.wallet_micro),
      autoStakedMicro: BigInt(row.auto_staked_micro),
      escrowedMicro: BigInt(row.escrowed_micro),
    }));
  }

  /** Marks statements paid, each with its ledger transaction (null: nothing to move). */
  async markPaid(
    manager: Transaction,
    periodDay: string,
    paid: readonly { key: string; ledgerTransactionId: string | null }[],
    paidAt: Date,
  ): Promise<void> {
    await manager.query(
      `UPDATE reward_statements r SET status = 'paid', paid_at = $2, ledger_transaction_id = v.tx
       FROM unnest($3::uuid[], $4::uuid[]) AS v(server_id, tx)
       WHERE r.period = $1::date AND r.server_id = v.server_id AND r.status = 'computed'`,
      [periodDay, paidAt, paid.map((p) => p.key), paid.map((p) => p.ledgerTransactionId)],
    );
  }

  async lockUnpaidStaking(
    manager: Transaction,
    periodDay: string,
    limit: number,
  ): Promise<UnpaidStaking[]> {
    const rows = await queryRows<{ owner_uuid: string; paid_micro: string }>(
      manager,
      `SELECT owner_uuid, paid_micro FROM reward_staking_statements
       WHERE period = $1::date AND status = 'computed'
       ORDER BY owner_uuid LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [periodDay, limit],
    );
    return rows.map((row) => ({ ownerUuid: row.owner_uuid, paidMicro: BigInt(row.paid_micro) }));
  }

  async markStakingPaid(
    manager: Transaction,
    periodDay: string,
    paid: readonly { key: string; ledgerTransactionId: string | null }[],
    paidAt: Date,
  ): Promise<void> {
    await manager.query(
      `UPDATE reward_staking_statements r
       SET status = 'paid', paid_at = $2, ledger_transaction_id = v.tx
       FROM unnest($3::uuid[], $4::uuid[]) AS v(owner_uuid, tx)
       WHERE r.period = $1::date AND r.owner_uuid = v.owner_uuid AND r.status = 'computed'`,
      [periodDay, paidAt, paid.map((p) => p.key), paid.map((p) => p.ledgerTransactionId)],
    );
  }

  /** Marks the run paid once none of its statements is left to pay; whether it did. */
  async markRunPaid(periodDay: string, paidAt: Date): Promise<boolean> {
    const rows = await queryRows<{ period: string }>(
      this.dataSource,
      `UPDATE reward_runs SET status = 'paid', paid_at = $2
       WHERE period = $1::date AND status = 'computed'
         AND NOT EXISTS (SELECT 1 FROM reward_statements
                         WHERE period = $1::date AND status = 'computed')
         AND NOT EXISTS (SELECT 1 FROM reward_staking_statements
                         WHERE period = $1::date AND status = 'computed')
       RETURNING period`,
      [periodDay, paidAt],
    );
    return rows.length > 0;
  }

  /** The operator's stored statements of a period, by server id. */
  statementsOf(ownerUuid: string, periodDay: string): Promise<RewardStatementEntity[]> {
    return this.dataSource
      .getRepository(RewardStatementEntity)
      .find({ where: { ownerUuid, period: periodDay }, order: { serverId: 'ASC' } });
  }

  stakingOf(ownerUuid: string, periodDay: string): Promise<RewardStakingStatementEntity | null> {
    return this.dataSource
      .getRepository(RewardStakingStatementEntity)
      .findOneBy({ ownerUuid, period: periodDay });
  }

  /** Every server the operator has now, oldest first. */
  async ownedServers(ownerUuid: string): Promise<OwnedServer[]> {
    const rows = await queryRows<{
      id: string;
      name: string;
      tier: string | null;
      banned_at: Date | null;
      below_threshold_since: Date | null;
    }>(
      this.dataSource,
      `SELECT id, name, tier, banned_at, below_threshold_since FROM server_directory
       WHERE owner_uuid = $1 ORDER BY created_at, id`,
      [ownerUuid],
    );
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      tier: row.tier,
      bannedAt: row.banned_at,
      belowThresholdSince: row.below_threshold_since,
    }));
  }

  /** The names of the operator's servers among `serverIds` (deleted ones are absent). */
  async serverNames(ownerUuid: string, serverIds: readonly string[]): Promise<Map<string, string>> {
    if (serverIds.length === 0) return new Map();
    const rows = await queryRows<{ id: string; name: string }>(
      this.dataSource,
      `SELECT id, name FROM server_directory WHERE owner_uuid = $1 AND id = ANY($2::uuid[])`,
      [ownerUuid, serverIds],
    );
    return new Map(rows.map((row) => [row.id, row.name]));
  }
}
