import { ListingLocksRepository } from '../market/listing-locks.repository';
import { randomUUID } from 'node:crypto';
import { ECONOMICS, MICRO_PER_SSL } from '@scn/proto';
import { depositSsl, ledgerViolations } from '../../test/support/ledger';
import { insertAccount, insertServers } from '../../test/support/market-fixtures';
import { MovableClock } from '../../test/support/market-model';
import { repositoryDatabase } from '../../test/support/server-rows';
import { TransactionRunner } from '../database/transaction-runner';
import { IdempotencyRepository } from '../wallet/idempotency.repository';
import { IdempotencyService } from '../wallet/idempotency.service';
import { LedgerService } from '../wallet/ledger.service';
import { WalletBalancesService } from '../wallet/wallet-balances.service';
import { WalletRepository } from '../wallet/wallet.repository';
import { StakingException } from './staking.exception';
import { StakingRepository } from './staking.repository';
import { StakingService } from './staking.service';
import { StakingViewService } from './staking-view.service';

const t = repositoryDatabase();
const START = new Date('2026-03-01T12:00:00.000Z');
const DAY = 86_400_000;
const ssl = (n: number) => BigInt(n) * MICRO_PER_SSL;

let clock: MovableClock;
let staking: StakingService;
let views: StakingViewService;
let ledger: LedgerService;
let runner: TransactionRunner;
beforeAll(() => {
  clock = new MovableClock(START);
  runner = new TransactionRunner(t.dataSource);
  ledger = new LedgerService(new WalletRepository(t.dataSource));
  const repository = new StakingRepository(t.dataSource);
  const idempotency = new IdempotencyService(runner, new IdempotencyRepository(t.dataSource));
  const balances = new WalletBalancesService(new WalletRepository(t.dataSource));
  staking = new StakingService(
    runner,
    repository,
    ledger,
    balances,
    idempotency,
    clock,
    new ListingLocksRepository(),
  );
  views = new StakingViewService(repository, balances, clock);
});
beforeEach(() => {
  clock.at = START;
});
afterEach(async () => {
  expect(await ledgerViolations(t.db.url)).toEqual([]);
});

/** A node operator with `funded` SSL in the node wallet (a deposit) and one listed agent server. */
async function operator(funded: number): Promise<{ owner: string; serverId: string }> {
  const owner = await insertAccount(t.db);
  if (funded > 0) await depositSsl(t.db.url, owner, funded, 'node_wallet');
  const serverId = randomUUID();
  await insertServers(t.db, [{ id: serverId, ownerUuid: owner, tier: 'tier2' }], START);
  return { owner, serverId };
}

async function refusal(work: Promise<unknown>): Promise<StakingException> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StakingException);
  return error as StakingException;
}

describe('StakingService.stake', () => {
  it('should move the amount from the node wallet to the stake, locked for the lock days', async () => {
    const { owner } = await operator(100);
    const answer = await staking.stake(owner, ssl(40), undefined);
    expect(answer).toMatchObject({
      amountMicro: ssl(40).toString(),
      stakeMicro: ssl(40).toString(),
      nodeWalletMicro: ssl(60).toString(),
      message: 'Staked 40.00 SSL',
    });
    const view = await views.view(owner);
    expect(view).toMatchObject({
      stakeMicro: ssl(40).toString(),
      unlockedMicro: '0',
      lockedMicro: ssl(40).toString(),
      locks: [
        {
          amountMicro: ssl(40).toString(),
          unlocksAt: new Date(START.getTime() + ECONOMICS.stakeLockDays * DAY).toISOString(),
        },
      ],
      stakeableMicro: ssl(60).toString(),
      // 40 x 12% / 12 = 0.4 SSL a month.
      monthlyIncomeMicro: '400000',
    });
  });

  it('should refuse more than the available balance: frozen rewards cannot be staked (402)', async () => {
    const { owner } = await operator(10);
    // A reward of 30 SSL frozen for 60 days: the balance is 40, 10 of it available.
    await runner.run((tx) =>
      ledger.lockAndPost(tx, {
        type: 'subscription_reward',
        describedAs: { code: 'subscription_reward' as const, values: {} },
        postings: [
          { account: { system: 'external' }, amountMicro: -ssl(30) },
          {
            account: { wallet: 'node_wallet', ownerUuid: owner },
            amountMicro: ssl(30),
            frozenUntil: new Date(START.getTime() + 60 * DAY),
          },
        ],
      }),
    );
    const refused = await refusal(staking.stake(owner, ssl(11), undefined));
    expect(refused.code).toBe('available_too_low');
    expect(refused.details).toMatchObject({ availableMicro: ssl(10).toString() });
    expect(refused.message).toBe(
      'Insufficient available balance. You want to stake 11.00 SSL but only 10.00 SSL of your node wallet is available (frozen rewards cannot be staked).',
    );
    await staking.stake(owner, ssl(10), undefined);
    expect((await views.view(owner)).stakeableMicro).toBe('0');
    // Once the reward thaws it can be staked.
    clock.at = new Date(START.getTime() + 61 * DAY);
    expect((await views.view(owner)).stakeableMicro).toBe(ssl(30).toString());
  });

  it('should let concurrent stakes spend the available balance once, never more', async () => {
    const { owner } = await operator(10);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, () => staking.stake(owner, ssl(3), undefined)),
    );
    const done = outcomes.filter((o) => o.status === 'fulfilled');
    expect(done).toHaveLength(3);
    for (const o of outcomes) {
      if (o.status === 'rejected')
        expect((o.reason as StakingException).code).toBe('available_too_low');
    }
    const view = await views.view(owner);
    expect(view.stakeMicro).toBe(ssl(9).toString());
    expect(view.stakeableMicro).toBe(ssl(1).toString());
  });

  it('should move once for one Idempotency-Key and answer the replay with the first answer', async () => {
    const { owner } = await operator(10);
    const [first, second] = await Promise.all([
      staking.stake(owner, ssl(4), 'stake-key-1'),
      staking.stake(owner, ssl(4), 'stake-key-1'),
    ]);
    expect(second).toEqual(first);
    expect((await views.view(owner)).stakeMicro).toBe(ssl(4).toString());
    await expect(staking.stake(owner, ssl(5), 'stake-key-1')).rejects.toMatchObject({
      code: 'idempotency_key_reused',
    });
  });
});

describe('StakingService.unstake', () => {
  it('should take only stakes past their lock, oldest first, and say when the next unlocks (409)', async () => {
    const { owner } = await operator(100);
    await staking.stake(owner, ssl(5), undefined);
    clock.at = new Date(START.getTime() + 10 * DAY);
    await staking.stake(owner, ssl(7), undefined);

    const early = await refusal(staking.unstake(owner, ssl(1), undefined));
    expect(early.code).toBe('stake_locked');
    expect(early.message).toBe(
      'Only 0.00 SSL of your stake is unlocked; you asked for 1.00 SSL. Each stake is locked for 30 days. The next 5.00 SSL unlocks on 31 March 2026.',
    );

    // 31 days after the first stake: the first (5) is unlocked, the second (7) is not.
    clock.at = new Date(START.getTime() + 31 * DAY);
    const view = await views.view(owner);
    expect(view).toMatchObject({
      unlockedMicro: ssl(5).toString(),
      lockedMicro: ssl(7).toString(),
      locks: [{ amountMicro: ssl(7).toString() }],
    });
    const over = await refusal(staking.unstake(owner, ssl(6), undefined));
    expect(over.code).toBe('stake_locked');
    expect(over.details).toMatchObject({ unlockedMicro: ssl(5).toString() });
    const answer = await staking.unstake(owner, ssl(5), undefined);
    expect(answer).toMatchObject({
      stakeMicro: ssl(7).toString(),
      nodeWalletMicro: ssl(93).toString(),
      message: 'Unstaked 5.00 SSL to your node wallet',
    });
    expect((await views.view(owner)).unlockedMicro).toBe('0');

    clock.at = new Date(START.getTime() + 41 * DAY);
    await staking.unstake(owner, ssl(7), undefined);
    expect((await views.view(owner)).stakeMicro).toBe('0');
  });

  it('should refuse an unstake with nothing staked', async () => {
    const { owner } = await operator(0);
    const refused = await refusal(staking.unstake(owner, 1n, undefined));
    expect(refused.message).toBe(
      'Only 0.00 SSL of your stake is unlocked; you asked for 0.00 SSL. Each stake is locked for 30 days.',
    );
  });

  it('should let concurrent unstakes take the unlocked stake once', async () => {
    const { owner } = await operator(20);
    await staking.stake(owner, ssl(10), undefined);
    clock.at = new Date(START.getTime() + 31 * DAY);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, () => staking.unstake(owner, ssl(4), undefined)),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
    expect((await views.view(owner)).stakeMicro).toBe(ssl(2).toString());
  });
});

describe('stakers in the market', () => {
  const stakerOf = async (serverId: string) =>
    (
      await t.db.query<{ staker: boolean }>(
        'SELECT staker FROM market_listings WHERE server_id = $1',
        [serverId],
      )
    )[0]!.staker;

  it('should mark the operator’s listings staker with the first stake and clear it with the last unstake', async () => {
    const { owner, serverId } = await operator(10);
    expect(await stakerOf(serverId)).toBe(false);
    await staking.stake(owner, ssl(2), undefined);
    expect(await stakerOf(serverId)).toBe(true);
    // A server listed later by a staker starts as a staker's.
    const later = randomUUID();
    await insertServers(t.db, [{ id: later, ownerUuid: owner }], START);
    expect(await stakerOf(later)).toBe(true);
    clock.at = new Date(START.getTime() + 31 * DAY);
    await staking.unstake(owner, ssl(1), undefined);
    expect(await stakerOf(serverId)).toBe(true);
    await staking.unstake(owner, ssl(1), undefined);
    expect([await stakerOf(serverId), await stakerOf(later)]).toEqual([false, false]);
  });
});

describe('StakingService.setAutoStake', () => {
  it('should store the percent per operator and show it', async () => {
    const { owner } = await operator(0);
    expect((await views.view(owner)).autoStakePercent).toBe(0);
    expect(await staking.setAutoStake(owner, 50)).toEqual({
      success: true,
      message: 'Automatic staking set to 50% of each payout',
      autoStakePercent: 50,
    });
    await staking.setAutoStake(owner, 0);
    expect((await views.view(owner)).autoStakePercent).toBe(0);
  });
});
