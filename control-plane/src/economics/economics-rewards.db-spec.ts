import { ListingLocksRepository } from '../market/listing-locks.repository';
import { MICRO_PER_SSL } from '@scn/proto';
import { DataSource } from 'typeorm';
import { ledgerViolations } from '../../test/support/ledger';
import { insertAccount, insertServers } from '../../test/support/market-fixtures';
import {
  insertHistory,
  ledgerAt,
  poolBalance,
  setAutoStake,
  SYSTEM,
} from '../../test/support/reward-fixtures';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { dataSourceOptions } from '../database/data-source';
import { TransactionRunner } from '../database/transaction-runner';
import { RewardComputer } from '../rewards/reward-computer';
import { RewardFactsRepository } from '../rewards/reward-facts.repository';
import { addPeriods, periodBounds, periodOf } from '../rewards/reward-period';
import { monthlyBudgetMicro } from '../rewards/reward-rules';
import { RewardRunService } from '../rewards/reward-run.service';
import { RewardStatementsRepository } from '../rewards/reward-statements.repository';
import { LedgerService } from '../wallet/ledger.service';
import { WalletRepository } from '../wallet/wallet.repository';
import { EconomicsRepository } from './economics.repository';
import { EconomicsService } from './economics.service';

/**
 * The live economy (GET /api/economics/live) agrees with the rewards engine: what
 * it says the pool paid is what the monthly runs took out of the pool, and the month's budget is
 * the one the engine computes for that month (the same month index from the genesis
 * transaction, the same rule).
 */

const ssl = (value: number) => BigInt(value) * MICRO_PER_SSL;
const HOUR = 3_600_000;
let now = new Date();
const clock = { now: () => now };

let db: TestDatabase;
let dataSource: DataSource;
let computer: RewardComputer;
let runs: RewardRunService;
beforeAll(async () => {
  db = await createTestDatabase();
  dataSource = await new DataSource(dataSourceOptions(db.url)).initialize();
  computer = new RewardComputer(new RewardFactsRepository(dataSource));
  runs = new RewardRunService(
    computer,
    new RewardStatementsRepository(dataSource),
    new LedgerService(new WalletRepository(dataSource)),
    new TransactionRunner(dataSource),
    clock,
    new ListingLocksRepository(),
  );
});
afterAll(async () => {
  await dataSource.destroy();
  await db.drop();
});

/** The live figures at `now` (a new service each time: one caches for 30 s). */
function live() {
  return new EconomicsService(new EconomicsRepository(dataSource), clock).live();
}

/** What a period's run took out of the pool: the pool entries of its statements' movements. */
async function paidFromPool(period: string): Promise<bigint> {
  const [row] = await db.query<{ paid: string }>(
    `SELECT COALESCE(-sum(e.amount_micro), 0)::text AS paid FROM ledger_entries e
     JOIN ledger_accounts a ON a.id = e.account_id AND a.kind = 'reward_pool'
     WHERE e.transaction_id IN (
       SELECT ledger_transaction_id FROM reward_statements WHERE period = $1::date
       UNION ALL
       SELECT ledger_transaction_id FROM reward_staking_statements WHERE period = $1::date)`,
    [`${period}-01`],
  );
  return BigInt(row!.paid);
}

describe('GET /api/economics/live and the monthly runs', () => {
  it('should show what the runs paid out of the pool and the budget the engine gives the month', async () => {
    // Month 0 of the cycle is the genesis transaction's (the migration's: today's).
    const genesis = (await new RewardFactsRepository(dataSource).genesisAt())!;
    const month0 = periodOf(genesis);
    const [first, second, third] = [1, 2, 3].map((n) => addPeriods(month0, n)) as [
      string,
      string,
      string,
    ];
    const start = (period: string) => periodBounds(period).start;
    const lastDay = (period: string) =>
      new Date(periodBounds(period).end.getTime() - 1).toISOString().slice(0, 10);

    // Operator A: a node at 100% both months (30% auto-staked), and one that spends a day of
    // the second month below 95% (that part goes to its escrow). Operator B: a stake held
    // through the second month (staking income).
    const a = await insertAccount(db);
    const b = await insertAccount(db);
    await setAutoStake(db, a, 30);
    const [steady, dipped] = await insertServers(
      db,
      [
        { ownerUuid: a, tier: 'tier2' },
        { ownerUuid: a, tier: 'tier1' },
      ],
      start(first),
    );
    for (const period of [first, second]) {
      await insertHistory(db, {
        serverId: steady!,
        ownerUuid: a,
        tier: 'tier2',
        from: `${period}-01`,
        to: lastDay(period),
      });
    }
    await insertHistory(db, {
      serverId: dipped!,
      ownerUuid: a,
      tier: 'tier1',
      from: `${second}-01`,
      to: lastDay(second),
    });
    await insertHistory(db, {
      serverId: dipped!,
      ownerUuid: a,
      tier: 'tier1',
      from: `${second}-02`,
      to: `${second}-02`,
      reliability: 90,
      belowSeconds: 86_400,
    });
    await ledgerAt(db, start(first), 'test_deposit', [
      ['external', SYSTEM, -ssl(1000)],
      ['stake', b, ssl(1000)],
    ]);
    const poolAtStart = await poolBalance(db);

    now = new Date(start(second).getTime() + 2 * HOUR);
    await runs.runPeriod(first);
    now = new Date(start(third).getTime() + 2 * HOUR);
    await runs.runPeriod(second);
    const paidFirst = await paidFromPool(first);
    const paidSecond = await paidFromPool(second);
    // Every part moved: wallets, the auto-stake, the escrow and the staking income.
    expect(paidFirst).toBe(ssl(625));
    expect(paidSecond).toBeGreaterThan(ssl(625 + 240 + 10));

    now = new Date(start(third).getTime() + 3 * HOUR);
    const shown = await live();
    expect(shown).toMatchObject({
      month: third,
      lastMonthPaidMicro: paidSecond.toString(),
      totalPaidMicro: (paidFirst + paidSecond).toString(),
      poolMicro: (poolAtStart - paidFirst - paidSecond).toString(),
    });
    expect(BigInt(shown.poolMicro)).toBe(await poolBalance(db));

    // The budget: month 3 since genesis, the engine's own figure for the month (what its dry
    // run uses), one month on from the index the last run stored.
    const engine = await computer.pool(third);
    expect(engine.monthIndex).toBe(3);
    const [stored] = await db.query<{ month_index: number }>(
      `SELECT month_index FROM reward_runs WHERE period = $1::date`,
      [`${second}-01`],
    );
    expect(stored!.month_index).toBe(2);
    expect(shown).toMatchObject({
      cycleMonth: 4,
      monthBudgetMicro: engine.budgetMicro.toString(),
    });
    expect(shown.monthBudgetMicro).toBe(monthlyBudgetMicro(BigInt(shown.poolMicro), 3).toString());

    // When the month is run, nothing having moved the pool since, its budget is the one shown.
    now = new Date(periodBounds(third).end.getTime() + 2 * HOUR);
    await runs.runPeriod(third);
    const [run] = await db.query<{ budget_micro: string }>(
      `SELECT budget_micro FROM reward_runs WHERE period = $1::date`,
      [`${third}-01`],
    );
    expect(run!.budget_micro).toBe(shown.monthBudgetMicro);
    // The third month (no history) paid staking incomes only: B's 1% of 1,000 SSL and A's on
    // its automatic stakes. The next month's figures say so.
    const after = await live();
    expect(after.lastMonthPaidMicro).toBe((await paidFromPool(third)).toString());
    expect(BigInt(after.lastMonthPaidMicro)).toBeGreaterThan(ssl(10));
    expect(after.totalPaidMicro).toBe(
      (paidFirst + paidSecond + BigInt(after.lastMonthPaidMicro)).toString(),
    );
    expect(await ledgerViolations(db.url)).toEqual([]);
  });
});
