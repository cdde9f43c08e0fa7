import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { depositSsl, ledgerViolations } from '../../test/support/ledger';
import { insertAccount, insertServers } from '../../test/support/market-fixtures';
import { walletBalance } from '../../test/support/subscriptions';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { dataSourceOptions } from '../database/data-source';
import { LedgerService } from '../wallet/ledger.service';
import { WalletRepository } from '../wallet/wallet.repository';
import { PurchasesRepository } from './purchases.repository';
import { ServerDropService } from './server-drop.service';
import { ServerDropsRepository } from './server-drops.repository';
import { SubscriptionsRepository } from './subscriptions.repository';

const SSL = 1_000_000n;
const DAY = 86_400_000;
let db: TestDatabase;
let dataSource: DataSource;
let ledger: LedgerService;
let writer: PurchasesRepository;
let drops: ServerDropService;
let subscriptions: SubscriptionsRepository;

beforeAll(async () => {
  db = await createTestDatabase();
  dataSource = new DataSource({ ...dataSourceOptions(db.url), extra: { max: 20 } });
  await dataSource.initialize();
  ledger = new LedgerService(new WalletRepository(dataSource));
  writer = new PurchasesRepository(dataSource);
  subscriptions = new SubscriptionsRepository(dataSource);
  drops = new ServerDropService(new ServerDropsRepository(dataSource), subscriptions, ledger);
});
afterAll(async () => {
  await writer.onModuleDestroy();
  await dataSource.destroy();
  await db.drop();
});

/** A monthly subscription to two servers of `operator`, paid 20 SSL, rewarding it 20 SSL frozen. */
async function subscribed(start: Date) {
  const operator = await insertAccount(dataSource, { userType: 'node' });
  const client = await insertAccount(dataSource, { userType: 'client' });
  await depositSsl(db.url, client, 20);
  const [a, b] = [randomUUID(), randomUUID()];
  await insertServers(
    dataSource,
    [
      { id: a, ownerUuid: operator },
      { id: b, ownerUuid: operator },
    ],
    start,
  );
  const id = randomUUID();
  const price = 20n * SSL;
  const outcome = await writer.write({
    owner: client,
    key: null,
    requestHash: null,
    subscription: {
      id,
      vlessUuid: randomUUID(),
      billingCycle: 'monthly',
      expiresAt: new Date(start.getTime() + 30 * DAY).toISOString(),
      urlTokenHash: randomUUID().replaceAll('-', '').padEnd(64, '0'),
      urlTokenSealed: 'sealed',
      createdAt: start.toISOString(),
    },
    servers: [
      { id: a, capacity: 100 },
      { id: b, capacity: 100 },
    ],
    debitMicro: price.toString(),
    transactions: ledger.planUnwritten([
      {
        type: 'subscription',
        describedAs: { code: 'subscription_purchased' as const, values: { servers: 1 } },
        postings: [
          { account: { wallet: 'client_wallet', ownerUuid: client }, amountMicro: -price },
          { account: { system: 'platform_revenue' }, amountMicro: price },
        ],
        subscriptionId: id,
        serverCount: 2,
      },
      {
        type: 'subscription_reward',
        describedAs: { code: 'subscription_reward' as const, values: {} },
        postings: [
          { account: { system: 'platform_revenue' }, amountMicro: -price },
          {
            account: { wallet: 'node_wallet', ownerUuid: operator },
            amountMicro: price,
            frozenUntil: new Date(start.getTime() + 60 * DAY),
          },
        ],
        subscriptionId: id,
        serverCount: 2,
      },
    ]),
    response: { subscriptionId: id },
  });
  expect(outcome.status).toBe('written');
  return { operator, client, id, a, b };
}

describe('ServerDropService', () => {
  it('should refund a server once when 30 transactions race to drop it, even without the subscription lock', async () => {
    const start = new Date();
    const { operator, client, id, a } = await subscribed(start);
    const now = new Date(start.getTime() + 12 * DAY);
    const record = (await subscriptions.findOwned(client, id))!;
    // Each attempt in its own transaction and connection; none locks the subscription row, so
    // only the unique key of subscription_server_drops stands between them and a double refund.
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, () =>
        dataSource.transaction((manager) =>
          drops.drop(
            manager,
            record,
            { id: a, name: 'A', ownerUuid: operator },
            { reason: 'banned', since: now },
            now,
          ),
        ),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const done = results.filter((r) => r.status === 'fulfilled' && r.value !== null);
    expect(done).toHaveLength(1);
    // 10 SSL (the server's half of 20) x 18 days / 30 days = 6 SSL, from the operator's reward.
    expect(done[0]).toMatchObject({ value: { refundMicro: 6n * SSL, serversLeft: 1 } });
    expect(await walletBalance(dataSource, client)).toBe(6n * SSL);
    expect(await walletBalance(dataSource, operator, 'node_wallet')).toBe(14n * SSL);
    const rows = await dataSource.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM subscription_server_drops WHERE subscription_id = $1`,
      [id],
    );
    expect(rows[0]!.n).toBe(1);
    // The operator's debit carries its reward's frozen_until: that frozen lot is 14 SSL now.
    const lots = await new WalletRepository(dataSource).frozenLots(
      await ledger.ensureWallet('node_wallet', operator),
      now,
    );
    expect(lots.map((lot) => lot.amountMicro)).toEqual([14n * SSL]);
    expect(await ledgerViolations(db.url)).toEqual([]);
  });

  it('should refund the paused time in full: a client pause stops the paid clock', async () => {
    const start = new Date();
    const { operator, client, id, b } = await subscribed(start);
    const pausedAt = new Date(start.getTime() + 3 * DAY);
    await dataSource.query(
      `UPDATE subscriptions SET status = 'paused', paused_at = $2, pause_reason = 'user',
         pause_ends_at = $3 WHERE id = $1`,
      [id, pausedAt, new Date(pausedAt.getTime() + 7 * DAY)],
    );
    const record = (await subscriptions.findOwned(client, id))!;
    const now = new Date(pausedAt.getTime() + 5 * DAY);
    const result = await dataSource.transaction((manager) =>
      drops.drop(
        manager,
        record,
        { id: b, name: 'B', ownerUuid: operator },
        { reason: 'deleted', since: now },
        now,
      ),
    );
    // 27 of 30 days were left when the pause began: 10 SSL x 27 / 30 = 9 SSL.
    expect(result).toEqual({ refundMicro: 9n * SSL, serversLeft: 1 });
    expect(await ledgerViolations(db.url)).toEqual([]);
  });
});
