import { ListingLocksRepository } from '../market/listing-locks.repository';
import { randomUUID } from 'node:crypto';
import { MICRO_PER_SSL, type StakingData } from '@scn/proto';
import { DataSource } from 'typeorm';
import { depositSsl, ledgerViolations } from '../../test/support/ledger';
import { insertAccount, insertServers } from '../../test/support/market-fixtures';
import {
  balanceOf,
  insertHistory,
  ledgerAt,
  setAutoStake,
  SYSTEM,
} from '../../test/support/reward-fixtures';
import { subscriptionServices } from '../../test/support/subscription-services';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import type { ActiveSession } from '../auth/auth.repository';
import { dataSourceOptions } from '../database/data-source';
import { RETRYABLE_SQL_STATES, sqlState } from '../common/sql';
import { type Transaction, TransactionRunner } from '../database/transaction-runner';
import { RewardComputer } from '../rewards/reward-computer';
import { RewardFactsRepository } from '../rewards/reward-facts.repository';
import { RewardRunService } from '../rewards/reward-run.service';
import { RewardStatementsRepository } from '../rewards/reward-statements.repository';
import { IdempotencyRepository } from '../wallet/idempotency.repository';
import { IdempotencyService } from '../wallet/idempotency.service';
import { LedgerService } from '../wallet/ledger.service';
import { WalletBalancesService } from '../wallet/wallet-balances.service';
import { WalletRepository } from '../wallet/wallet.repository';
import { StakingException } from './staking.exception';
import { StakingRepository } from './staking.repository';
import { StakingService } from './staking.service';
import { StakingViewService } from './staking-view.service';

/**
 * Staking and the rewards engine agree: the halving requirement the staking
 * settings show is the one the engine compares the stake with, and the engine's automatic
 * stake is locked like a stake made by hand. Both run on one real database.
 */

const ssl = (value: number) => BigInt(value) * MICRO_PER_SSL;
const DAY = 86_400_000;
let now = new Date('2026-06-01T02:00:00Z');
const clock = { now: () => now };

/**
 * The services' TransactionRunner, counting the transactions PostgreSQL rolled back for a
 * deadlock or a serialization failure: runRetrying runs them again, so no caller would see one.
 */
class CountingRunner extends TransactionRunner {
  rolledBack = 0;

  override async run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    try {
      return await super.run(work);
    } catch (error) {
      if (RETRYABLE_SQL_STATES.has(sqlState(error) ?? '')) this.rolledBack += 1;
      throw error;
    }
  }
}

let transactions: CountingRunner;
let db: TestDatabase;
let dataSource: DataSource;
let runs: RewardRunService;
let staking: StakingService;
let views: StakingViewService;
let subscriptions: ReturnType<typeof subscriptionServices>;
beforeAll(async () => {
  db = await createTestDatabase();
  dataSource = await new DataSource({
    ...dataSourceOptions(db.url),
    extra: { max: 20 },
  }).initialize();
  transactions = new CountingRunner(dataSource);
  const ledger = new LedgerService(new WalletRepository(dataSource));
  runs = new RewardRunService(
    new RewardComputer(new RewardFactsRepository(dataSource)),
    new RewardStatementsRepository(dataSource),
    ledger,
    transactions,
    clock,
    new ListingLocksRepository(),
  );
  const repository = new StakingRepository(dataSource);
  const idempotency = new IdempotencyService(transactions, new IdempotencyRepository(dataSource));
  const balances = new WalletBalancesService(new WalletRepository(dataSource));
  staking = new StakingService(
    transactions,
    repository,
    ledger,
    balances,
    idempotency,
    clock,
    new ListingLocksRepository(),
  );
  views = new StakingViewService(repository, balances, clock);
  subscriptions = subscriptionServices(dataSource, clock);
});
afterAll(async () => {
  await subscriptions.purchases.onModuleDestroy();
  await dataSource.destroy();
  await db.drop();
});
afterEach(async () => {
  expect(await ledgerViolations(db.url)).toEqual([]);
});

/** The engine's stored requirement of the operator's statements, per server and in all. */
async function storedRequirements(owner: string) {
  const rows = await db.query<{ server_id: string; required: string }>(
    `SELECT server_id, sum(required_stake_micro)::text AS required FROM reward_statements
     WHERE owner_uuid = $1 GROUP BY server_id`,
    [owner],
  );
  return {
    byServer: new Map(rows.map((r) => [r.server_id, r.required])),
    total: rows.reduce((sum, r) => sum + BigInt(r.required), 0n).toString(),
  };
}

function perServer(view: StakingData): Record<string, string> {
  return Object.fromEntries(view.servers.map((s) => [s.id, s.requiredStakeMicro]));
}

describe('the halving requirement', () => {
  it('should show the requirement the rewards engine stored and compares the stake with', async () => {
    const owner = await insertAccount(db);
    const client = await insertAccount(db, { userType: 'client' });
    // A node in its year 5 (50% of its income is asked), a young one (20%) that a client
    // subscribes to, and one banned in June (its statements are withheld, never paid, yet they
    // ask their share all the same).
    const [old] = await insertServers(
      db,
      [{ ownerUuid: owner, tier: 'tier3' }],
      new Date('2021-06-01T00:00:00Z'),
    );
    const [young, banned] = await insertServers(
      db,
      [
        { ownerUuid: owner, tier: 'tier1' },
        { ownerUuid: owner, tier: 'tier1', bannedAt: new Date('2026-06-20T00:00:00Z') },
      ],
      new Date('2026-01-01T00:00:00Z'),
    );
    for (const [serverId, tier] of [
      [old!, 'tier3'],
      [young!, 'tier1'],
    ] as const) {
      await insertHistory(db, {
        serverId,
        ownerUuid: owner,
        tier,
        from: '2026-05-01',
        to: '2026-06-30',
      });
    }
    await insertHistory(db, {
      serverId: banned!,
      ownerUuid: owner,
      tier: 'tier1',
      from: '2026-05-01',
      to: '2026-06-19',
    });
    // May: one subscription to the young node pays its operator 10 SSL when bought.
    const subscription = randomUUID();
    await db.query(
      `INSERT INTO subscriptions (id, owner_uuid, vless_uuid, status, billing_cycle, expires_at)
       VALUES ($1, $2, $3, 'active', 'monthly', '2026-06-10')`,
      [subscription, client, randomUUID()],
    );
    await db.query(
      `INSERT INTO subscription_servers (subscription_id, server_id, position) VALUES ($1, $2, 0)`,
      [subscription, young],
    );
    await ledgerAt(
      db,
      new Date('2026-05-10T10:00:00Z'),
      'subscription_reward',
      [
        ['platform_revenue', SYSTEM, -ssl(10)],
        ['node_wallet', owner, ssl(10)],
      ],
      { subscriptionId: subscription, serverCount: 1 },
    );

    now = new Date('2026-06-01T02:00:00Z');
    await runs.runPeriod('2026-05');
    const afterMay = await views.view(owner);
    const stored = await storedRequirements(owner);
    // Of each node's income (earned base + subscriptions): 50% of 1,500, 20% of 250 + 10, and
    // 20% of the banned node's 250, though the pool paid it nothing.
    expect(stored.total).toBe((ssl(750) + ssl(52) + ssl(50)).toString());
    expect(afterMay).toMatchObject({ requiredStakeMicro: stored.total, requirementMet: false });
    expect(perServer(afterMay)).toEqual(Object.fromEntries(stored.byServer));
    expect(stored.byServer.size).toBe(3);

    // June is computed against exactly what the settings showed: every June statement says
    // the requirement before it was that total, and the node past year 4 is cut because the
    // settings said the stake (0) does not cover it.
    now = new Date('2026-07-01T02:00:00Z');
    await runs.runPeriod('2026-06');
    const june = await db.query<{
      server_id: string;
      required_before_micro: string;
      halving_cut: boolean;
    }>(
      `SELECT server_id, required_before_micro, halving_cut FROM reward_statements
       WHERE owner_uuid = $1 AND period = '2026-06-01'`,
      [owner],
    );
    expect(june.map((s) => s.required_before_micro)).toEqual(
      june.map(() => afterMay.requiredStakeMicro),
    );
    expect(june.find((s) => s.server_id === old)!.halving_cut).toBe(!afterMay.requirementMet);
    const afterJune = await views.view(owner);
    const storedJune = await storedRequirements(owner);
    expect(afterJune.requiredStakeMicro).toBe(storedJune.total);
    expect(perServer(afterJune)).toEqual(Object.fromEntries(storedJune.byServer));
    expect(afterJune.servers.filter((s) => s.halvingCut).map((s) => s.id)).toEqual([old]);
    // Another operator's view asks nothing of these statements.
    expect((await views.view(await insertAccount(db))).requiredStakeMicro).toBe('0');
  });
});

async function refusal(work: Promise<unknown>): Promise<StakingException> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StakingException);
  return error as StakingException;
}

describe('the automatic stake of a payout', () => {
  it('should be locked like a stake made by hand: 30 days from the payout', async () => {
    const owner = await insertAccount(db);
    const [server] = await insertServers(
      db,
      [{ ownerUuid: owner, tier: 'tier3' }],
      new Date('2026-08-01T00:00:00Z'),
    );
    await insertHistory(db, {
      serverId: server!,
      ownerUuid: owner,
      tier: 'tier3',
      from: '2026-08-01',
      to: '2026-08-31',
    });
    await setAutoStake(db, owner, 40);
    const paidAt = new Date('2026-09-01T02:00:00Z');
    now = paidAt;
    await runs.runPeriod('2026-08');

    // 40% of 1,500 SSL staked when paid, locked until the payout + 30 days.
    const autoStaked = ssl(600);
    expect(await balanceOf(db, 'stake', owner)).toBe(autoStaked);
    const unlocksAt = new Date(paidAt.getTime() + 30 * DAY).toISOString();
    expect(await views.view(owner)).toMatchObject({
      stakeMicro: autoStaked.toString(),
      lockedMicro: autoStaked.toString(),
      unlockedMicro: '0',
      locks: [{ amountMicro: autoStaked.toString(), unlocksAt }],
    });
    const early = await refusal(staking.unstake(owner, 1n, undefined));
    expect(early.code).toBe('stake_locked');
    expect(early.details).toMatchObject({
      unlockedMicro: '0',
      nextUnlockAt: unlocksAt,
      nextUnlockMicro: autoStaked.toString(),
    });
    now = new Date(new Date(unlocksAt).getTime() - 1);
    expect((await refusal(staking.unstake(owner, autoStaked, undefined))).code).toBe(
      'stake_locked',
    );

    now = new Date(unlocksAt);
    expect(await views.view(owner)).toMatchObject({
      unlockedMicro: autoStaked.toString(),
      locks: [],
    });
    expect(await staking.unstake(owner, autoStaked, undefined)).toMatchObject({
      stakeMicro: '0',
    });
  });
});

describe('a payout racing stakes and purchases of the same operators', () => {
  it('should let every call through and keep the ledger whole', async () => {
    now = new Date('2026-11-01T02:00:00Z');
    const operators: Array<{ owner: string; servers: string[]; client: string }> = [];
    for (let i = 0; i < 12; i += 1) {
      const owner = await insertAccount(db);
      const servers = await insertServers(
        db,
        [0, 1].map(() => ({
          ownerUuid: owner,
          tier: 'tier1' as const,
          createdAt: new Date('2026-10-01T00:00:00Z'),
        })),
        now,
      );
      for (const serverId of servers) {
        await insertHistory(db, {
          serverId,
          ownerUuid: owner,
          tier: 'tier1',
          from: '2026-10-01',
          to: '2026-10-31',
        });
      }
      // Half of each payout is staked: the payout credits both the node wallet and the stake,
      // and its first credit turns the operator into a staker (a trigger updates the listings).
      await setAutoStake(db, owner, 50);
      await depositSsl(db.url, owner, 20, 'node_wallet');
      const client = await insertAccount(db, { userType: 'client' });
      await depositSsl(db.url, client, 100);
      operators.push({ owner, servers, client });
    }
    const rolledBackBefore = transactions.rolledBack;
    const session = (uuid: string) => ({ account: { uuid, userType: 'client' } }) as ActiveSession;
    // Once the first batch is paid, every operator stakes and each client buys a server of its
    // operator and of the next one, while the payout's other batches (one statement each) go on.
    const racing: Array<Promise<unknown>> = [];
    const payout = runs.runPeriod('2026-10', {
      batchSize: 1,
      afterBatch: (paid) => {
        if (paid !== 1) return;
        operators.forEach((o, i) => {
          const next = operators[(i + 1) % operators.length]!;
          racing.push(
            staking.stake(o.owner, ssl(5), undefined),
            subscriptions.purchase.create(
              session(o.client),
              {
                uuid: o.client,
                serverIds: [o.servers[0]!, next.servers[1]!],
                billingCycle: 'monthly',
              },
              undefined,
            ),
          );
        });
      },
    });
    // The payout first: the racing calls start during it.
    const outcomes = [
      ...(await Promise.allSettled([payout])),
      ...(await Promise.allSettled(racing)),
    ];
    expect(racing).toHaveLength(2 * operators.length);
    const failures = outcomes
      .map((o, i) =>
        o.status === 'rejected' ? `${i === 0 ? 'payout' : 'call'}: ${String(o.reason)}` : null,
      )
      .filter((failure) => failure !== null);
    expect(failures).toEqual([]);
    // Not even one retried: the batch takes its locks in the purchases' and stakes' order.
    expect(transactions.rolledBack - rolledBackBefore).toBe(0);
    expect(await payout).toMatchObject({ paid: 24, finished: true });

    // Each operator: two tier1 statements of 250 SSL, half of each staked; its own 5 SSL
    // staked; two subscription rewards of 10 SSL (its client's purchase and the previous one's).
    for (const { owner } of operators) {
      expect(await balanceOf(db, 'stake', owner)).toBe(ssl(5 + 125 + 125));
      expect(await balanceOf(db, 'node_wallet', owner)).toBe(ssl(20 - 5 + 125 + 125 + 10 + 10));
    }
    const [moves] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM reward_statements r
       JOIN ledger_transactions t ON t.id = r.ledger_transaction_id
       WHERE r.period = '2026-10-01' AND r.status = 'paid' AND t.type = 'monthly_reward'`,
    );
    expect(moves!.n).toBe(24);
    // The listings follow the stakes: every one of these operators is a staker.
    const notStakers = await db.query(
      `SELECT l.server_id FROM market_listings l JOIN servers s ON s.id = l.server_id
       WHERE s.owner_uuid = ANY($1::uuid[]) AND NOT l.staker`,
      [operators.map((o) => o.owner)],
    );
    expect(notStakers).toEqual([]);
  });
});
