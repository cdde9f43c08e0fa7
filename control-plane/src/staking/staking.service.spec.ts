import { MICRO_PER_SSL } from '@scn/proto';
import type { Transaction, TransactionRunner } from '../database/transaction-runner';
import type { IdempotencyService } from '../wallet/idempotency.service';
import type { LedgerService, PostRequest } from '../wallet/ledger.service';
import type { WalletBalancesService } from '../wallet/wallet-balances.service';
import type { ListingLocksRepository } from '../market/listing-locks.repository';
import type { StakingRepository } from './staking.repository';
import { StakingService } from './staking.service';

const now = new Date('2026-03-01T12:00:00.000Z');
const tx = { tx: true } as unknown as Transaction;
const OWNER = '11111111-1111-4111-8111-111111111111';
const ssl = (n: number) => BigInt(n) * MICRO_PER_SSL;

function setup({
  wallet = ssl(100),
  frozen = [] as bigint[],
  stake = 0n,
  locks = [] as Array<{ amountMicro: bigint; unlocksAt: Date }>,
} = {}) {
  const calls: string[] = [];
  const listings = {
    lockOwnersListings: jest.fn(async () => {
      calls.push('lockListings');
    }),
  };
  const repository = {
    setAutoStakePercent: jest.fn(async () => undefined),
  };
  const ledger = {
    lockWallet: jest.fn(async (_tx: Transaction, kind: string) => {
      calls.push(`lock ${kind}`);
      return { id: kind, balanceMicro: kind === 'node_wallet' ? wallet : stake };
    }),
    // LedgerService.lockAvailable as it is: the locked balance less its frozen lots, at most all.
    lockAvailable: jest.fn(async (_tx: Transaction, kind: string) => {
      calls.push(`lock ${kind}`);
      const frozenMicro = frozen.reduce((sum, lot) => sum + lot, 0n);
      const held = frozenMicro > wallet ? wallet : frozenMicro;
      return { balanceMicro: wallet, frozenMicro: held, availableMicro: wallet - held };
    }),
    lockAndPost: jest.fn(async (_tx: Transaction, request: PostRequest) => {
      calls.push(`post ${request.type}`);
      return 'tx-1';
    }),
  };
  // WalletBalancesService as it reads: a stake's lots carry frozenUntil, balances by kind.
  const balances = {
    frozenLots: jest.fn(async (kind: string) =>
      kind === 'node_wallet'
        ? frozen.map((amountMicro) => ({ amountMicro, frozenUntil: new Date(now.getTime() + 1) }))
        : locks.map((lock) => ({ amountMicro: lock.amountMicro, frozenUntil: lock.unlocksAt })),
    ),
    balances: jest.fn(
      async () =>
        new Map([
          ['node_wallet', wallet],
          ['stake', stake],
        ]),
    ),
  };
  const idempotency = {
    once: jest.fn(
      async (
        _owner: string,
        _key: string | undefined,
        _request: unknown,
        work: (t: Transaction) => unknown,
      ) => ({
        body: await work(tx),
        replayed: false,
      }),
    ),
  };
  const transactions = { retrying: jest.fn((work: () => unknown) => work()) };
  const service = new StakingService(
    transactions as unknown as TransactionRunner,
    repository as unknown as StakingRepository,
    ledger as unknown as LedgerService,
    balances as unknown as WalletBalancesService,
    idempotency as unknown as IdempotencyService,
    { now: () => now },
    listings as unknown as ListingLocksRepository,
  );
  return { service, repository, ledger, idempotency, transactions, calls };
}

describe('StakingService.stake', () => {
  it('should lock the listings, then the wallet, check the available balance and post the stake', async () => {
    const { service, ledger, idempotency, calls } = setup();
    const answer = await service.stake(OWNER, ssl(30), 'key-1');
    expect(calls).toEqual(['lockListings', 'lock node_wallet', 'post stake']);
    expect(ledger.lockAndPost.mock.calls[0]![1]).toMatchObject({
      type: 'stake',
      initiatorUuid: OWNER,
      postings: [
        { account: { wallet: 'node_wallet', ownerUuid: OWNER }, amountMicro: -ssl(30) },
        { account: { wallet: 'stake', ownerUuid: OWNER }, amountMicro: ssl(30) },
      ],
    });
    expect(idempotency.once.mock.calls[0]!.slice(0, 3)).toEqual([
      OWNER,
      'key-1',
      { route: `/api/nodes/${OWNER}/stake`, body: { amountMicro: ssl(30).toString() } },
    ]);
    expect(answer).toMatchObject({
      success: true,
      transactionId: 'tx-1',
      message: 'Staked 30.00 SSL',
    });
  });

  it('should refuse beyond the balance less its frozen rewards (402) and post nothing', async () => {
    const { service, ledger } = setup({ wallet: ssl(100), frozen: [ssl(60), ssl(15)] });
    await expect(service.stake(OWNER, ssl(26), undefined)).rejects.toMatchObject({
      code: 'available_too_low',
      details: { availableMicro: ssl(25).toString(), requiredMicro: ssl(26).toString() },
    });
    expect(ledger.lockAndPost).not.toHaveBeenCalled();
    await expect(service.stake(OWNER, ssl(25), undefined)).resolves.toMatchObject({
      success: true,
    });
  });

  it('should count frozen rewards above the balance (partly spent) as the whole balance', async () => {
    const { service } = setup({ wallet: ssl(10), frozen: [ssl(30)] });
    await expect(service.stake(OWNER, 1n, undefined)).rejects.toMatchObject({
      code: 'available_too_low',
      details: { availableMicro: '0' },
    });
  });
});

describe('StakingService.unstake', () => {
  it('should refuse more than the unlocked part (409) with the next unlock, and post nothing', async () => {
    const unlocksAt = new Date('2026-03-20T00:00:00.000Z');
    const { service, ledger } = setup({
      stake: ssl(12),
      locks: [{ amountMicro: ssl(7), unlocksAt }],
    });
    await expect(service.unstake(OWNER, ssl(6), undefined)).rejects.toMatchObject({
      code: 'stake_locked',
      details: {
        unlockedMicro: ssl(5).toString(),
        nextUnlockAt: unlocksAt.toISOString(),
        nextUnlockMicro: ssl(7).toString(),
      },
    });
    expect(ledger.lockAndPost).not.toHaveBeenCalled();
  });

  it('should post an unstake of the unlocked part after locking the listings and the stake', async () => {
    const { service, ledger, calls } = setup({ stake: ssl(12) });
    const answer = await service.unstake(OWNER, ssl(12), undefined);
    expect(calls).toEqual(['lockListings', 'lock stake', 'post unstake']);
    expect(ledger.lockAndPost.mock.calls[0]![1]).toMatchObject({ type: 'unstake' });
    expect(answer.message).toBe('Unstaked 12.00 SSL to your node wallet');
  });
});

describe('StakingService.setAutoStake', () => {
  it('should store the percent at the clock’s time and say so', async () => {
    const { service, repository } = setup();
    expect(await service.setAutoStake(OWNER, 0)).toMatchObject({
      message: 'Automatic staking is off',
      autoStakePercent: 0,
    });
    expect(repository.setAutoStakePercent).toHaveBeenCalledWith(OWNER, 0, now);
  });
});
