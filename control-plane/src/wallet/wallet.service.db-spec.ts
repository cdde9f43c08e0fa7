import { MICRO_PER_SSL, TRANSACTION_TYPES } from '@scn/proto';
import { depositSsl, ledgerViolations } from '../../test/support/ledger';
import { insertAccount } from '../../test/support/market-fixtures';
import { repositoryDatabase } from '../../test/support/server-rows';
import type { AppConfig } from '../config/app-config';
import { TransactionRunner } from '../database/transaction-runner';
import { escrowRelease, stakingPayout, statementPayout } from '../rewards/reward-payouts';
import { stakePostings, unstakePostings } from '../staking/staking-rules';
import { LedgerService, type PostRequest } from './ledger.service';
import { WalletRepository } from './wallet.repository';
import { WalletService } from './wallet.service';

const t = repositoryDatabase();
const ssl = (n: number) => BigInt(n) * MICRO_PER_SSL;
const now = new Date('2026-09-01T02:00:00.000Z');
const SERVER = '44444444-4444-4444-8444-444444444444';

describe('WalletService.view: the node wallet lists rewards, stakes and withdrawals', () => {
  it('should list each with the sign of what it did to the wallet, and only types the contract names', async () => {
    const ledger = new LedgerService(new WalletRepository(t.dataSource));
    const wallets = new WalletService(
      new WalletRepository(t.dataSource),
      ledger,
      { now: () => now },
      {} as AppConfig,
    );
    const owner = await insertAccount(t.db);
    await depositSsl(t.db.url, owner, 100, 'node_wallet');
    const post = (request: PostRequest | null) =>
      new TransactionRunner(t.dataSource).run((tx) => ledger.lockAndPost(tx, request!));
    // Each movement as its domain writes it.
    await post({
      type: 'stake',
      describedAs: { code: 'staked' as const, values: {} },
      postings: stakePostings(owner, ssl(30), now),
    });
    await post({
      type: 'unstake',
      describedAs: { code: 'unstaked' as const, values: {} },
      postings: unstakePostings(owner, ssl(10)),
    });
    await post(
      statementPayout(
        {
          serverId: SERVER,
          ownerUuid: owner,
          walletMicro: ssl(50),
          autoStakedMicro: ssl(20),
          escrowedMicro: ssl(5),
        },
        '2026-08',
        now,
      ),
    );
    await post(stakingPayout({ ownerUuid: owner, paidMicro: ssl(1) }, '2026-08', now));
    await post(escrowRelease({ serverId: SERVER, operatorUuid: owner, balanceMicro: ssl(5) }, now));
    // A withdrawal of 40 SSL (10 of fee) and its reversal, as the withdrawals domain writes them.
    await post({
      type: 'withdrawal',
      describedAs: { code: 'withdrawal' as const, values: { destination: 'address' } },
      postings: [
        { account: { wallet: 'node_wallet', ownerUuid: owner }, amountMicro: -ssl(40) },
        { account: { system: 'platform_revenue' }, amountMicro: ssl(10) },
        { account: { system: 'external' }, amountMicro: ssl(30) },
      ],
    });
    await post({
      type: 'withdrawal_reversal',
      describedAs: { code: 'withdrawal_returned' as const, values: {} },
      postings: [
        { account: { system: 'external' }, amountMicro: -ssl(30) },
        { account: { system: 'platform_revenue' }, amountMicro: -ssl(10) },
        { account: { wallet: 'node_wallet', ownerUuid: owner }, amountMicro: ssl(40) },
      ],
    });

    const view = await wallets.view(owner, 'node', { limit: 50 });
    const listed = Object.fromEntries(view.transactions.map((x) => [x.type, x.amountMicro]));
    expect(listed).toEqual({
      test_deposit: ssl(100).toString(),
      stake: (-ssl(30)).toString(),
      unstake: ssl(10).toString(),
      monthly_reward: ssl(50).toString(),
      staking_reward: ssl(1).toString(),
      reward_release: ssl(5).toString(),
      withdrawal: (-ssl(40)).toString(),
      withdrawal_reversal: ssl(40).toString(),
    });
    expect(view.transactions).toHaveLength(8);
    // The portal labels every type the wallet lists (TRANSACTION_TYPES is its list).
    for (const { type } of view.transactions) {
      expect(TRANSACTION_TYPES as readonly string[]).toContain(type);
    }
    expect(view.balanceMicro).toBe(ssl(100 - 30 + 10 + 50 + 1 + 5 - 40 + 40).toString());
    expect(await ledgerViolations(t.db.url)).toEqual([]);
  });
});
