import { ListingLocksRepository } from '../market/listing-locks.repository';
import { MICRO_PER_SSL } from '@scn/proto';
import { DataSource } from 'typeorm';
import { ledgerViolations } from '../../test/support/ledger';
import { insertAccount, insertServers } from '../../test/support/market-fixtures';
import {
  balanceOf,
  insertHistory,
  ledgerAt,
  poolBalance,
  setAutoStake,
  SYSTEM,
} from '../../test/support/reward-fixtures';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { dataSourceOptions } from '../database/data-source';
import { TransactionRunner } from '../database/transaction-runner';
import { LedgerService } from '../wallet/ledger.service';
import { WalletRepository } from '../wallet/wallet.repository';
import { RewardComputer } from './reward-computer';
import { RewardFactsRepository } from './reward-facts.repository';
import { RewardRunService } from './reward-run.service';
import { RewardStatementsRepository } from './reward-statements.repository';

const ssl = (value: number) => BigInt(value) * MICRO_PER_SSL;
let now = new Date('2026-08-01T02:00:00Z');
const clock = { now: () => now };

let db: TestDatabase;
let dataSource: DataSource;
let runs: RewardRunService;
beforeAll(async () => {
  db = await createTestDatabase();
  dataSource = await new DataSource({
    ...dataSourceOptions(db.url),
    extra: { max: 20 },
  }).initialize();
  const repository = new RewardStatementsRepository(dataSource);
  runs = newRunService(repository);
});
afterAll(async () => {
  await dataSource.destroy();
  await db.drop();
});

function newRunService(repository = new RewardStatementsRepository(dataSource)) {
  return new RewardRunService(
    new RewardComputer(new RewardFactsRepository(dataSource)),
    repository,
    new LedgerService(new WalletRepository(dataSource)),
    new TransactionRunner(dataSource),
    clock,
    new ListingLocksRepository(),
  );
}

/** `count` tier3 servers of a new operator, each with a full month of history at 100%. */
async function operatorWithServers(period: string, count: number, days: number) {
  const operator = await insertAccount(db);
  const servers = await insertServers(
    db,
    Array.from({ length: count }, () => ({ ownerUuid: operator, tier: 'tier3' as const })),
    new Date(`${period}-01T00:00:00Z`),
  );
  for (const serverId of servers) {
    await insertHistory(db, {
      serverId,
      ownerUuid: operator,
      tier: 'tier3',
      from: `${period}-01`,
      to: `${period}-${days}`,
    });
  }
  return { operator, servers };
}

async function rewardTransactions(serverId: string) {
  return db.query<{ external_ref: string; type: string }>(
    `SELECT external_ref, type FROM ledger_transactions WHERE external_ref LIKE $1`,
    [`reward:${serverId}:%`],
  );
}

async function statuses(period: string) {
  const rows = await db.query<{ status: string; n: number }>(
    `SELECT status, count(*)::int AS n FROM reward_statements WHERE period = $1 GROUP BY status`,
    [`${period}-01`],
  );
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

describe('RewardRunService.runPeriod', () => {
  it('should pay a period once when run twice: wallet, auto-stake, escrow, withheld for a ban', async () => {
    now = new Date('2026-08-01T02:00:00Z');
    const { operator, servers } = await operatorWithServers('2026-07', 1, 31);
    const [healthy] = servers;
    await setAutoStake(db, operator, 50);
    // Below 95% all of one day (90%), recovered since.
    const [dipped, banned] = await insertServers(
      db,
      [
        { ownerUuid: operator, tier: 'tier3' },
        { ownerUuid: operator, tier: 'tier3', bannedAt: new Date('2026-07-20T00:00:00Z') },
      ],
      new Date('2026-07-01T00:00:00Z'),
    );
    await insertHistory(db, {
      serverId: dipped!,
      ownerUuid: operator,
      tier: 'tier3',
      from: '2026-07-01',
      to: '2026-07-30',
    });
    await insertHistory(db, {
      serverId: dipped!,
      ownerUuid: operator,
      tier: 'tier3',
      from: '2026-07-31',
      to: '2026-07-31',
      reliability: 90,
      belowSeconds: 86_400,
    });
    await insertHistory(db, {
      serverId: banned!,
      ownerUuid: operator,
      tier: 'tier3',
      from: '2026-07-01',
      to: '2026-07-19',
    });
    const poolBefore = await poolBalance(db);

    const first = await runs.runPeriod('2026-07');
    expect(first).toMatchObject({ computed: true, paid: 2, finished: true });
    const second = await runs.runPeriod('2026-07');
    expect(second).toMatchObject({ computed: false, paid: 0, finished: true });

    // Healthy: 1,500 SSL, half auto-staked. Dipped: 1,500 x (2 x Σr·s - 100 x obs) / (100 x period).
    const dippedEarned = (ssl(1500) * (2n * (100n * 30n + 90n) - 100n * 31n)) / (100n * 31n);
    const dippedFrozen = dippedEarned / 31n;
    const dippedPayable = dippedEarned - dippedFrozen;
    expect(await balanceOf(db, 'node_wallet', operator)).toBe(
      ssl(750) + dippedPayable - dippedPayable / 2n,
    );
    expect(await balanceOf(db, 'stake', operator)).toBe(ssl(750) + dippedPayable / 2n);
    expect(await balanceOf(db, 'reward_escrow', dipped!)).toBe(dippedFrozen);
    // Paid once each, none for the banned server; the pool gave exactly what was paid.
    expect(await rewardTransactions(healthy!)).toEqual([
      { external_ref: `reward:${healthy}:2026-07`, type: 'monthly_reward' },
    ]);
    expect(await rewardTransactions(dipped!)).toHaveLength(1);
    expect(await rewardTransactions(banned!)).toEqual([]);
    expect(poolBefore - (await poolBalance(db))).toBe(ssl(1500) + dippedEarned);
    const [withheld] = await db.query<{ status: string; withheld: string; earned_micro: string }>(
      `SELECT status, withheld, earned_micro FROM reward_statements WHERE server_id = $1`,
      [banned],
    );
    expect(withheld).toEqual({
      status: 'withheld',
      withheld: 'banned',
      earned_micro: ((ssl(1500) * 19n) / 31n).toString(),
    });
    // The wallet part is frozen 60 days from the payout.
    const [entry] = await db.query<{ frozen_until: Date }>(
      `SELECT e.frozen_until FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
       JOIN ledger_accounts a ON a.id = e.account_id
       WHERE t.external_ref = $1 AND a.kind = 'node_wallet'`,
      [`reward:${healthy}:2026-07`],
    );
    expect(entry!.frozen_until.toISOString()).toBe('2026-09-30T02:00:00.000Z');
    expect(await ledgerViolations(db.url)).toEqual([]);
  });

  it('should pay the rest once when a run is stopped after its first batch and run again', async () => {
    now = new Date('2026-06-01T03:00:00Z');
    const { operator, servers } = await operatorWithServers('2026-05', 5, 31);
    const stop = new Error('killed');
    await expect(
      runs.runPeriod('2026-05', {
        batchSize: 2,
        afterBatch: () => {
          throw stop;
        },
      }),
    ).rejects.toBe(stop);
    expect(await statuses('2026-05')).toEqual({ paid: 2, computed: 3 });
    expect(await balanceOf(db, 'node_wallet', operator)).toBe(ssl(3000));

    // A new process: the unfinished run is found and finished.
    const again = newRunService();
    expect(await again.unfinishedPeriods()).toEqual(['2026-05']);
    const outcome = await again.runPeriod('2026-05', { batchSize: 2 });
    expect(outcome).toMatchObject({ computed: false, paid: 3, finished: true });
    expect(await statuses('2026-05')).toEqual({ paid: 5 });
    expect(await balanceOf(db, 'node_wallet', operator)).toBe(ssl(7500));
    for (const serverId of servers) expect(await rewardTransactions(serverId)).toHaveLength(1);
    expect(await again.unfinishedPeriods()).toEqual([]);
    expect(await ledgerViolations(db.url)).toEqual([]);
  });

  it('should compute once and pay each statement once when two replicas race without a lock', async () => {
    now = new Date('2026-04-01T01:30:00Z');
    const { operator, servers } = await operatorWithServers('2026-03', 7, 31);
    const [a, b] = await Promise.all([
      newRunService().runPeriod('2026-03', { batchSize: 2 }),
      newRunService().runPeriod('2026-03', { batchSize: 2 }),
    ]);
    expect([a.computed, b.computed].sort()).toEqual([false, true]);
    expect(a.paid + b.paid).toBe(7);
    expect(await balanceOf(db, 'node_wallet', operator)).toBe(ssl(1500 * 7));
    for (const serverId of servers) expect(await rewardTransactions(serverId)).toHaveLength(1);
    expect(await ledgerViolations(db.url)).toEqual([]);
  });

  it('should cut an old node by half once the stake falls short of what earlier months asked', async () => {
    const operator = await insertAccount(db);
    const [old] = await insertServers(
      db,
      [{ ownerUuid: operator, tier: 'tier3', createdAt: new Date('2021-01-15T00:00:00Z') }],
      new Date('2021-01-15T00:00:00Z'),
    );
    for (const [period, days] of [
      ['2025-01', 31],
      ['2025-02', 28],
    ] as const) {
      await insertHistory(db, {
        serverId: old!,
        ownerUuid: operator,
        tier: 'tier3',
        from: `${period}-01`,
        to: `${period}-${days}`,
      });
    }
    now = new Date('2025-02-01T02:00:00Z');
    await runs.runPeriod('2025-01');
    now = new Date('2025-03-01T02:00:00Z');
    await runs.runPeriod('2025-02');
    const rows = await db.query<{
      period: string;
      halving_cut: boolean;
      earned_micro: string;
      required_before_micro: string;
      required_stake_micro: string;
    }>(
      `SELECT to_char(period, 'YYYY-MM') AS period, halving_cut, earned_micro, required_before_micro,
              required_stake_micro
       FROM reward_statements WHERE server_id = $1 ORDER BY period`,
      [old],
    );
    // January: nothing asked before, so nothing short; year 5 asks 50% of 1,500.
    expect(rows[0]).toEqual({
      period: '2025-01',
      halving_cut: false,
      earned_micro: ssl(1500).toString(),
      required_before_micro: '0',
      required_stake_micro: ssl(750).toString(),
    });
    // February: 750 asked, nothing staked: halved.
    expect(rows[1]).toMatchObject({
      period: '2025-02',
      halving_cut: true,
      earned_micro: ssl(750).toString(),
      required_before_micro: ssl(750).toString(),
    });
    const [server] = await db.query<{ halving_cut: boolean }>(
      `SELECT halving_cut FROM servers WHERE id = $1`,
      [old],
    );
    expect(server!.halving_cut).toBe(true);
    expect(await ledgerViolations(db.url)).toEqual([]);
  });

  it('should scale every payout to the budget when the pool is short, and pay staking income', async () => {
    now = new Date('2026-02-01T05:00:00Z');
    const { operator, servers } = await operatorWithServers('2026-01', 3, 31);
    // A stake held through January: 1,000 SSL from December.
    await ledgerAt(db, new Date('2025-12-15T00:00:00Z'), 'stake', [
      ['external', SYSTEM, -ssl(1000)],
      ['stake', operator, ssl(1000)],
    ]);
    // Leave 300 SSL in the pool (the rest burned), put it back after.
    const pool = await poolBalance(db);
    const drained = pool - ssl(300);
    await ledgerAt(db, now, 'test_deposit', [
      ['reward_pool', SYSTEM, -drained],
      ['burn', SYSTEM, drained],
    ]);
    try {
      const outcome = await runs.runPeriod('2026-01');
      expect(outcome).toMatchObject({ paid: 3, stakingPaid: 1, finished: true });
      const [run] = await db.query<Record<string, string | number>>(
        `SELECT month_index, pool_micro, budget_micro, demand_micro, scale_numerator_micro,
                scale_denominator_micro FROM reward_runs WHERE period = '2026-01-01'`,
      );
      const genesis = await db.query<{ created_at: Date }>(
        `SELECT created_at FROM ledger_transactions WHERE external_ref = 'genesis:reward_pool'`,
      );
      const g = genesis[0]!.created_at;
      const index = (2026 - g.getUTCFullYear()) * 12 - g.getUTCMonth();
      const left = 12 - (((index % 12) + 12) % 12);
      const budget = ssl(300) / BigInt(left);
      const demand = ssl(4500) + ssl(10);
      expect(run).toEqual({
        month_index: index,
        pool_micro: ssl(300).toString(),
        budget_micro: budget.toString(),
        demand_micro: demand.toString(),
        scale_numerator_micro: budget.toString(),
        scale_denominator_micro: demand.toString(),
      });
      const each = (ssl(1500) * budget) / demand;
      const income = (ssl(10) * budget) / demand;
      expect(await balanceOf(db, 'node_wallet', operator)).toBe(each * 3n + income);
      expect(each * 3n + income).toBeLessThanOrEqual(budget);
      expect(await poolBalance(db)).toBe(ssl(300) - each * 3n - income);
      for (const serverId of servers) expect(await rewardTransactions(serverId)).toHaveLength(1);
      const [staking] = await db.query<{ external_ref: string; type: string }>(
        `SELECT external_ref, type FROM ledger_transactions WHERE external_ref = $1`,
        [`stake-income:${operator}:2026-01`],
      );
      expect(staking).toEqual({
        external_ref: `stake-income:${operator}:2026-01`,
        type: 'staking_reward',
      });
    } finally {
      await ledgerAt(db, now, 'test_deposit', [
        ['burn', SYSTEM, -drained],
        ['reward_pool', SYSTEM, drained],
      ]);
    }
    expect(await ledgerViolations(db.url)).toEqual([]);
  });

  it("should state an operator's share rewards of the month as the ad bonus, once", async () => {
    now = new Date('2025-05-01T02:00:00Z');
    const { operator, servers } = await operatorWithServers('2025-04', 2, 30);
    const client = await insertAccount(db, { userType: 'client' });
    // Two share rewards of the operator in April (node wallet), one in May, one of a client.
    const share = (owner: string, kind: string, at: string, micro: bigint) =>
      ledgerAt(db, new Date(at), 'social_reward', [
        ['reward_pool', SYSTEM, -micro],
        [kind, owner, micro],
      ]);
    await share(operator, 'node_wallet', '2025-04-03T12:00:00Z', 1_000_000n);
    await share(operator, 'node_wallet', '2025-04-30T23:59:59Z', 100_000n);
    await share(operator, 'node_wallet', '2025-05-01T00:00:00Z', 1_000_000n);
    await share(client, 'client_wallet', '2025-04-10T12:00:00Z', 1_000_000n);
    const walletBefore = await balanceOf(db, 'node_wallet', operator);

    await runs.runPeriod('2025-04');
    const rows = await db.query<{
      server_id: string;
      ad: string;
      income: string;
      earned: string;
      sub: string;
    }>(
      `SELECT server_id, ad_bonus_micro::text AS ad, income_micro::text AS income,
              earned_micro::text AS earned, subscription_micro::text AS sub
       FROM reward_statements WHERE period = '2025-04-01' AND owner_uuid = $1 ORDER BY server_id`,
      [operator],
    );
    expect(rows).toHaveLength(2);
    const first = [...servers].sort()[0];
    expect(rows.map((r) => [r.server_id, r.ad])).toEqual([
      [first, '1100000'],
      [rows[1]!.server_id, '0'],
    ]);
    // Income includes it; the payout does not pay it again (it was paid with each share).
    for (const row of rows) {
      expect(BigInt(row.income)).toBe(BigInt(row.earned) + BigInt(row.sub) + BigInt(row.ad));
    }
    const paid = await db.query<{ total: string }>(
      `SELECT COALESCE(sum(wallet_micro + auto_staked_micro), 0)::text AS total FROM reward_statements
       WHERE period = '2025-04-01' AND owner_uuid = $1`,
      [operator],
    );
    expect((await balanceOf(db, 'node_wallet', operator)) - walletBefore).toBe(
      BigInt(paid[0]!.total),
    );
    expect(await ledgerViolations(db.url)).toEqual([]);
  });
});
