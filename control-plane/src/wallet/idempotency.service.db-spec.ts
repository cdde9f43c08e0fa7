import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { depositSsl, ledgerViolations } from '../../test/support/ledger';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { dataSourceOptions } from '../database/data-source';
import { TransactionRunner } from '../database/transaction-runner';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';
import { LedgerService } from './ledger.service';
import { WalletException } from './wallet.exception';
import { WalletRepository } from './wallet.repository';

const SSL = 1_000_000n;
let db: TestDatabase;
let dataSource: DataSource;
let ledger: LedgerService;
let idempotency: IdempotencyService;
let repository: WalletRepository;

beforeAll(async () => {
  db = await createTestDatabase();
  dataSource = new DataSource(dataSourceOptions(db.url));
  await dataSource.initialize();
  repository = new WalletRepository(dataSource);
  ledger = new LedgerService(repository);
  idempotency = new IdempotencyService(
    new TransactionRunner(dataSource),
    new IdempotencyRepository(dataSource),
  );
});
afterAll(async () => {
  await dataSource.destroy();
  await db.drop();
});

const balance = async (owner: string) =>
  repository.balance((await repository.findAccountId('client_wallet', owner))!);

function payOnce(client: string, key: string | undefined, body: unknown = { servers: 1 }) {
  return idempotency.once(client, key, { route: 'pay', body }, async (manager) => {
    const id = await ledger.lockAndPost(manager, {
      type: 'subscription',
      describedAs: { code: 'subscription_purchased' as const, values: { servers: 1 } },
      postings: [
        { account: { wallet: 'client_wallet', ownerUuid: client }, amountMicro: -SSL },
        { account: { system: 'platform_revenue' }, amountMicro: SSL },
      ],
    });
    return { paymentId: id };
  });
}

describe('IdempotencyService', () => {
  it('should return the first answer to a replay and move nothing', async () => {
    const client = randomUUID();
    await depositSsl(db.url, client, 5);
    const first = await payOnce(client, 'key-1');
    const replay = await payOnce(client, 'key-1');
    expect(first.replayed).toBe(false);
    expect(replay).toEqual({ body: first.body, replayed: true });
    expect(await balance(client)).toBe(4n * SSL);
  });

  it('should pay once for many concurrent requests with the same key', async () => {
    const client = randomUUID();
    await depositSsl(db.url, client, 5);
    const results = await Promise.all(Array.from({ length: 20 }, () => payOnce(client, 'same')));
    expect(new Set(results.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(await balance(client)).toBe(4n * SSL);
    expect(await ledgerViolations(db.url)).toEqual([]);
  });

  it('should refuse the same key for a different request', async () => {
    const client = randomUUID();
    await depositSsl(db.url, client, 5);
    await payOnce(client, 'k', { servers: 1 });
    await expect(payOnce(client, 'k', { servers: 2 })).rejects.toMatchObject({
      code: 'idempotency_key_reused',
    });
    expect(await balance(client)).toBe(4n * SSL);
  });

  it('should keep keys apart per account', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await depositSsl(db.url, a, 5);
    await depositSsl(db.url, b, 5);
    await payOnce(a, 'shared');
    const other = await payOnce(b, 'shared');
    expect(other.replayed).toBe(false);
    expect(await balance(b)).toBe(4n * SSL);
  });

  it('should release the key when the payment fails, so a retry after a deposit works', async () => {
    const client = randomUUID();
    await expect(payOnce(client, 'retry')).rejects.toBeInstanceOf(WalletException);
    await depositSsl(db.url, client, 1);
    const retried = await payOnce(client, 'retry');
    expect(retried.replayed).toBe(false);
    expect(await balance(client)).toBe(0n);
  });

  it('should refuse a malformed key', async () => {
    await expect(payOnce(randomUUID(), 'has space')).rejects.toMatchObject({
      code: 'idempotency_key_invalid',
    });
    await expect(payOnce(randomUUID(), 'x'.repeat(129))).rejects.toMatchObject({
      code: 'idempotency_key_invalid',
    });
  });
});
