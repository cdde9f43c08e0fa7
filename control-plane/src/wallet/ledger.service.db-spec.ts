import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { depositSsl, ledgerViolations } from '../../test/support/ledger';
import { dataSourceOptions } from '../database/data-source';
import { TransactionRunner } from '../database/transaction-runner';
import { LedgerService } from './ledger.service';
import { WalletException } from './wallet.exception';
import { WalletRepository } from './wallet.repository';

const SSL = 1_000_000n;
let db: TestDatabase;
let dataSource: DataSource;
let ledger: LedgerService;
let transactions: TransactionRunner;
let repository: WalletRepository;

beforeAll(async () => {
  db = await createTestDatabase();
  dataSource = new DataSource({ ...dataSourceOptions(db.url), extra: { max: 40 } });
  await dataSource.initialize();
  repository = new WalletRepository(dataSource);
  ledger = new LedgerService(repository);
  transactions = new TransactionRunner(dataSource);
});
afterAll(async () => {
  await dataSource.destroy();
  await db.drop();
});

async function balanceOf(kind: 'client_wallet' | 'node_wallet', owner: string): Promise<bigint> {
  const id = await repository.findAccountId(kind, owner);
  return id ? repository.balance(id) : 0n;
}

/** A purchase-shaped movement: the client pays `ssl`, the operator earns it frozen. */
function pay(client: string, operator: string, ssl: bigint) {
  return transactions.run((manager) =>
    ledger.lockAndPost(manager, {
      type: 'subscription',
      describedAs: { code: 'subscription_purchased' as const, values: { servers: 1 } },
      initiatorUuid: client,
      postings: [
        { account: { wallet: 'client_wallet', ownerUuid: client }, amountMicro: -ssl * SSL },
        {
          account: { wallet: 'node_wallet', ownerUuid: operator },
          amountMicro: ssl * SSL,
          frozenUntil: new Date(Date.now() + 60 * 86_400_000),
        },
      ],
    }),
  );
}

describe('LedgerService', () => {
  it('should move money between wallets and keep every balance equal to its entries', async () => {
    const client = randomUUID();
    const operator = randomUUID();
    await depositSsl(db.url, client, 25);
    await pay(client, operator, 10n);
    expect(await balanceOf('client_wallet', client)).toBe(15n * SSL);
    expect(await balanceOf('node_wallet', operator)).toBe(10n * SSL);
    expect(await ledgerViolations(db.url)).toEqual([]);
  });

  it('should let exactly as many concurrent payments through as the balance covers', async () => {
    const client = randomUUID();
    const operators = Array.from({ length: 5 }, () => randomUUID());
    await depositSsl(db.url, client, 100);
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) => pay(client, operators[i % 5]!, 10n)),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter(
      (r): r is PromiseRejectedResult =>
        r.status === 'rejected' &&
        r.reason instanceof WalletException &&
        r.reason.code === 'insufficient_balance',
    );
    expect(ok).toHaveLength(10);
    expect(refused).toHaveLength(190);
    expect(refused[0]!.reason.message).toMatch(
      /^Insufficient balance\. You need 10\.00 SSL but have 0\.00 SSL\.$/,
    );
    expect(await balanceOf('client_wallet', client)).toBe(0n);
    const earned = await Promise.all(operators.map((o) => balanceOf('node_wallet', o)));
    expect(earned.reduce((a, b) => a + b, 0n)).toBe(100n * SSL);
    expect(await ledgerViolations(db.url)).toEqual([]);
  });

  it('should refuse postings that do not sum to zero before writing anything', async () => {
    const client = randomUUID();
    await depositSsl(db.url, client, 5);
    await expect(
      transactions.run((manager) =>
        ledger.lockAndPost(manager, {
          type: 'subscription',
          describedAs: { code: 'subscription_purchased' as const, values: { servers: 1 } },
          postings: [
            { account: { wallet: 'client_wallet', ownerUuid: client }, amountMicro: -SSL },
            { account: { system: 'platform_revenue' }, amountMicro: 2n * SSL },
          ],
        }),
      ),
    ).rejects.toThrow(/sum to zero/);
    expect(await balanceOf('client_wallet', client)).toBe(5n * SSL);
  });

  it('should roll the payment back when the thing it pays for fails in the same transaction', async () => {
    const client = randomUUID();
    await depositSsl(db.url, client, 10);
    await expect(
      transactions.run(async (manager) => {
        await ledger.lockAndPost(manager, {
          type: 'subscription',
          describedAs: { code: 'subscription_purchased' as const, values: { servers: 1 } },
          postings: [
            { account: { wallet: 'client_wallet', ownerUuid: client }, amountMicro: -10n * SSL },
            { account: { system: 'platform_revenue' }, amountMicro: 10n * SSL },
          ],
        });
        await manager.query(`INSERT INTO no_such_table VALUES (1)`);
      }),
    ).rejects.toThrow(/no_such_table/);
    expect(await balanceOf('client_wallet', client)).toBe(10n * SSL);
    expect(await ledgerViolations(db.url)).toEqual([]);
  });

  describe('the database itself', () => {
    it('should refuse an unbalanced transaction written around the service, at commit', async () => {
      const client = randomUUID();
      await depositSsl(db.url, client, 1);
      const accountId = (await repository.findAccountId('client_wallet', client))!;
      await expect(
        dataSource.transaction(async (manager) => {
          const id = randomUUID();
          await manager.query(`INSERT INTO ledger_transactions (id, type) VALUES ($1, 'deposit')`, [
            id,
          ]);
          await manager.query(
            `INSERT INTO ledger_entries (transaction_id, account_id, amount_micro) VALUES ($1, $2, 5000000)`,
            [id, accountId],
          );
        }),
      ).rejects.toThrow(/does not balance/);
      expect(await balanceOf('client_wallet', client)).toBe(SSL);
    });

    it('should refuse a wallet going negative even without the service’s lock', async () => {
      const client = randomUUID();
      await depositSsl(db.url, client, 1);
      const accountId = (await repository.findAccountId('client_wallet', client))!;
      const external = (await repository.findAccountId(
        'external',
        '00000000-0000-0000-0000-000000000000',
      ))!;
      await expect(
        dataSource.transaction(async (manager) => {
          const id = randomUUID();
          await manager.query(
            `INSERT INTO ledger_transactions (id, type) VALUES ($1, 'withdrawal')`,
            [id],
          );
          await manager.query(
            `INSERT INTO ledger_entries (transaction_id, account_id, amount_micro) VALUES ($1, $2, -2000000), ($1, $3, 2000000)`,
            [id, accountId, external],
          );
        }),
      ).rejects.toThrow(/ck_ledger_accounts_wallet_not_negative/);
      expect(await balanceOf('client_wallet', client)).toBe(SSL);
    });

    it('should keep the ledger append-only', async () => {
      await expect(dataSource.query(`UPDATE ledger_entries SET amount_micro = 1`)).rejects.toThrow(
        /append-only/,
      );
      await expect(dataSource.query(`DELETE FROM ledger_transactions`)).rejects.toThrow(
        /append-only/,
      );
      expect(await ledgerViolations(db.url)).toEqual([]);
    });
  });

  describe('postOnLockedWallets', () => {
    it('should pay many owners from the pool in one statement and keep the ledger whole', async () => {
      const operators = [randomUUID(), randomUUID(), randomUUID()];
      const ids = await transactions.run((manager) =>
        ledger.postOnLockedWallets(
          manager,
          operators.map((ownerUuid, i) => ({
            type: 'monthly_reward' as const,
            describedAs: { code: 'monthly_reward' as const, values: { period: '2026-01' } },
            externalRef: `test-many:${ownerUuid}`,
            postings: [
              { account: { system: 'reward_pool' as const }, amountMicro: -BigInt(i + 1) * SSL },
              {
                account: { wallet: 'node_wallet' as const, ownerUuid },
                amountMicro: BigInt(i + 1) * SSL,
              },
            ],
          })),
        ),
      );
      expect(ids).toHaveLength(3);
      for (const [i, operator] of operators.entries()) {
        expect(await balanceOf('node_wallet', operator)).toBe(BigInt(i + 1) * SSL);
      }
      expect(await ledgerViolations(db.url)).toEqual([]);
    });

    it('should refuse to debit an owned account the caller did not lock, or beyond its balance', async () => {
      const client = randomUUID();
      await depositSsl(db.url, client, 2);
      const spend = (amount: bigint) => ({
        type: 'withdrawal' as const,
        describedAs: { code: 'withdrawal' as const, values: { destination: 'address' } },
        postings: [
          {
            account: { wallet: 'client_wallet' as const, ownerUuid: client },
            amountMicro: -amount,
          },
          { account: { system: 'external' as const }, amountMicro: amount },
        ],
      });
      await expect(
        transactions.run((manager) => ledger.postOnLockedWallets(manager, [spend(SSL)])),
      ).rejects.toThrow(/not locked/);
      await expect(
        transactions.run(async (manager) => {
          const locked = await ledger.lockWallets(manager, 'client_wallet', [client]);
          return ledger.postOnLockedWallets(manager, [spend(SSL), spend(2n * SSL)], locked);
        }),
      ).rejects.toBeInstanceOf(WalletException);
      await transactions.run(async (manager) => {
        const locked = await ledger.lockWallets(manager, 'client_wallet', [client]);
        expect(locked.get(`client_wallet:${client}`)).toBe(2n * SSL);
        await ledger.postOnLockedWallets(manager, [spend(SSL), spend(SSL)], locked);
      });
      expect(await balanceOf('client_wallet', client)).toBe(0n);
      expect(await ledgerViolations(db.url)).toEqual([]);
    });
  });

  describe('description codes', () => {
    it('should store each movement’s code and values, by lockAndPost and postOnLockedWallets, and list them with the entry', async () => {
      const client = randomUUID();
      const operator = randomUUID();
      await depositSsl(db.url, client, 5);
      await pay(client, operator, 2n);
      await transactions.run((manager) =>
        ledger.postOnLockedWallets(manager, [
          {
            type: 'social_reward',
            describedAs: {
              code: 'share_reward',
              values: { platform: 'instagram', primeTime: true },
            },
            postings: [
              { account: { system: 'reward_pool' }, amountMicro: -SSL },
              { account: { wallet: 'node_wallet', ownerUuid: operator }, amountMicro: SSL },
            ],
          },
        ]),
      );
      const accountId = (await repository.findAccountId('node_wallet', operator))!;
      const rows = await repository.listEntries(accountId, 10);
      expect(rows.map((row) => [row.type, row.descriptionCode, row.descriptionValues])).toEqual([
        ['social_reward', 'share_reward', { platform: 'instagram', primeTime: true }],
        ['subscription', 'subscription_purchased', { servers: 1 }],
      ]);
      // The deposit helper writes around the service, as rows from before the codes: no code.
      const clientId = (await repository.findAccountId('client_wallet', client))!;
      const clientRows = await repository.listEntries(clientId, 10);
      expect(clientRows.at(-1)).toMatchObject({ descriptionCode: null, descriptionValues: null });
    });

    it('should store the code of a planned movement (the purchase’s path through ledger_post)', async () => {
      const [planned] = ledger.planUnwritten([
        {
          type: 'refund',
          describedAs: {
            code: 'refund_server_dropped',
            values: { server: 'Frankfurt 1', reason: 'banned' },
          },
          postings: [
            { account: { system: 'platform_revenue' }, amountMicro: -SSL },
            { account: { wallet: 'client_wallet', ownerUuid: randomUUID() }, amountMicro: SSL },
          ],
        },
      ]);
      await transactions.run((manager) => repository.insertPlanned(manager, [planned!]));
      const [row] = (await db.query(
        `SELECT description_code, description_values FROM ledger_transactions WHERE id = $1`,
        [planned!.id],
      )) as Array<{ description_code: string; description_values: unknown }>;
      expect(row).toEqual({
        description_code: 'refund_server_dropped',
        description_values: { server: 'Frankfurt 1', reason: 'banned' },
      });
    });
  });
});
