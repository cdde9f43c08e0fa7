import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { depositSsl, ledgerViolations } from '../../test/support/ledger';
import { insertAccount, insertServers } from '../../test/support/market-fixtures';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { dataSourceOptions } from '../database/data-source';
import { LedgerService } from '../wallet/ledger.service';
import { WalletRepository } from '../wallet/wallet.repository';
import { PurchaseFailed, type PurchaseWrite, PurchasesRepository } from './purchases.repository';

const SSL = 1_000_000n;
let db: TestDatabase;
let dataSource: DataSource;
let ledger: LedgerService;
let writer: PurchasesRepository;
let operator: string;

beforeAll(async () => {
  db = await createTestDatabase();
  dataSource = new DataSource({ ...dataSourceOptions(db.url), extra: { max: 10 } });
  await dataSource.initialize();
  ledger = new LedgerService(new WalletRepository(dataSource));
  writer = new PurchasesRepository(dataSource);
  operator = await insertAccount(dataSource, { userType: 'node' });
});
afterAll(async () => {
  await writer.onModuleDestroy();
  await dataSource.destroy();
  await db.drop();
});

async function newServer(): Promise<string> {
  const id = randomUUID();
  await insertServers(dataSource, [{ id, ownerUuid: operator }], new Date());
  return id;
}

async function newClient(ssl: number): Promise<string> {
  const client = await insertAccount(dataSource, { userType: 'client' });
  if (ssl > 0) await depositSsl(db.url, client, ssl);
  return client;
}

/** A 10 SSL purchase of one server, its operator credited, as the service builds it. */
function purchase(
  owner: string,
  serverId: string,
  options: { capacity?: number; key?: string; subscriptionId?: string } = {},
): PurchaseWrite {
  const subscriptionId = options.subscriptionId ?? randomUUID();
  const now = new Date();
  const price = 10n * SSL;
  return {
    owner,
    key: options.key ?? null,
    requestHash: options.key ? 'a'.repeat(64) : null,
    subscription: {
      id: subscriptionId,
      vlessUuid: randomUUID(),
      billingCycle: 'monthly',
      expiresAt: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
      urlTokenHash: randomUUID().replaceAll('-', '').padEnd(64, '0'),
      urlTokenSealed: 'sealed',
      createdAt: now.toISOString(),
    },
    servers: [{ id: serverId, capacity: options.capacity ?? 100 }],
    debitMicro: price.toString(),
    transactions: ledger.planUnwritten([
      {
        type: 'subscription',
        describedAs: { code: 'subscription_purchased' as const, values: { servers: 1 } },
        postings: [
          { account: { wallet: 'client_wallet', ownerUuid: owner }, amountMicro: -price },
          { account: { system: 'platform_revenue' }, amountMicro: price },
        ],
        subscriptionId,
      },
      {
        type: 'subscription_reward',
        describedAs: { code: 'subscription_reward' as const, values: {} },
        postings: [
          { account: { system: 'platform_revenue' }, amountMicro: -price },
          {
            account: { wallet: 'node_wallet', ownerUuid: operator },
            amountMicro: price,
            frozenUntil: new Date(now.getTime() + 60 * 86_400_000),
          },
        ],
        subscriptionId,
      },
    ]),
    response: { subscriptionId },
  };
}

async function count(sql: string, params: unknown[]): Promise<number> {
  const rows = await dataSource.query<{ n: number }[]>(sql, params);
  return rows[0]!.n;
}

describe('PurchasesRepository (one statement per batch, one subtransaction per purchase)', () => {
  it('should let one balance pay for the first purchase of a batch and refuse the rest alone', async () => {
    const client = await newClient(10);
    const [a, b, c] = [await newServer(), await newServer(), await newServer()];
    // Submitted in one tick: one batch, run in order.
    const outcomes = await Promise.all([
      writer.write(purchase(client, a)),
      writer.write(purchase(client, b)),
      writer.write(purchase(client, c)),
    ]);
    expect(outcomes[0]).toMatchObject({ status: 'written', balanceMicro: 0n, changedServers: [a] });
    for (const outcome of outcomes.slice(1)) {
      expect(outcome).toEqual({
        status: 'insufficient_balance',
        balanceMicro: 0n,
        requiredMicro: 10n * SSL,
      });
    }
    expect(
      await count(`SELECT count(*)::int AS n FROM subscriptions WHERE owner_uuid = $1`, [client]),
    ).toBe(1);
    expect(
      await count(`SELECT count(*)::int AS n FROM server_clients WHERE server_id = ANY($1)`, [
        [b, c],
      ]),
    ).toBe(0);
    expect(await ledgerViolations(db.url)).toEqual([]);
  });

  it('should count the places taken earlier in the same batch and refuse unknown servers', async () => {
    const full = await newServer();
    const [first, second, third] = [await newClient(10), await newClient(10), await newClient(10)];
    const missing = randomUUID();
    const outcomes = await Promise.all([
      writer.write(purchase(first, full, { capacity: 1 })),
      writer.write(purchase(second, full, { capacity: 1 })),
      writer.write(purchase(third, missing)),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['written', 'server_full', 'server_not_found']);
    expect(outcomes[1]).toEqual({ status: 'server_full', serverId: full });
    expect(outcomes[2]).toEqual({ status: 'server_not_found', serverId: missing });
    const versions = await dataSource.query<{ version: string }[]>(
      `SELECT version FROM server_client_sets WHERE server_id = $1`,
      [full],
    );
    expect(versions[0]!.version).toBe('1');
    expect(await ledgerViolations(db.url)).toEqual([]);
  });

  it('should answer a key taken earlier in the batch as replayed and store the first answer', async () => {
    const client = await newClient(20);
    const server = await newServer();
    const first = purchase(client, server, { key: 'key-1' });
    const outcomes = await Promise.all([
      writer.write(first),
      writer.write(purchase(client, server, { key: 'key-1' })),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['written', 'replayed']);
    const stored = await dataSource.query<{ status_code: number; response: unknown }[]>(
      `SELECT status_code, response FROM idempotency_keys WHERE owner_uuid = $1 AND key = 'key-1'`,
      [client],
    );
    expect(stored).toEqual([
      {
        status_code: 200,
        response: { subscriptionId: first.subscription.id, balanceMicro: (10n * SSL).toString() },
      },
    ]);
  });

  it('should let one of two replicas write a key both were sent, and answer the other as a replay', async () => {
    const client = await newClient(20);
    const server = await newServer();
    const replica = new PurchasesRepository(dataSource);
    try {
      // The later batch waits for the first one's locks (the same client set and wallet), then
      // finds the key stored.
      const outcomes = await Promise.all([
        writer.write(purchase(client, server, { key: 'both' })),
        replica.write(purchase(client, server, { key: 'both' })),
      ]);
      expect(outcomes.map((o) => o.status).sort()).toEqual(['replayed', 'written']);
    } finally {
      await replica.onModuleDestroy();
    }
    expect(
      await count(`SELECT count(*)::int AS n FROM subscriptions WHERE owner_uuid = $1`, [client]),
    ).toBe(1);
    const balances = await dataSource.query<{ balance_micro: string }[]>(
      `SELECT balance_micro FROM ledger_accounts WHERE kind = 'client_wallet' AND owner_uuid = $1`,
      [client],
    );
    expect(balances).toEqual([{ balance_micro: (10n * SSL).toString() }]);
    expect(await ledgerViolations(db.url)).toEqual([]);
  });

  it('should roll a purchase back as a replay when its key is stored meanwhile (SCN00)', async () => {
    const client = await newClient(10);
    const server = await newServer();
    const bought = purchase(client, server, { key: 'meanwhile' });
    // Another request with the same key, not committed yet: the purchase does not see it, does
    // its work, then waits to store the key, and finds it taken once the other commits.
    const other = new Client({ connectionString: db.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(
        `INSERT INTO idempotency_keys (owner_uuid, key, request_hash, status_code, response)
         VALUES ($1, 'meanwhile', $2, 200, '{}')`,
        [client, 'a'.repeat(64)],
      );
      const outcome = writer.write(bought);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await other.query('COMMIT');
      expect(await outcome).toEqual({ status: 'replayed' });
    } finally {
      await other.end();
    }
    expect(
      await count(`SELECT count(*)::int AS n FROM subscriptions WHERE id = $1`, [
        bought.subscription.id,
      ]),
    ).toBe(0);
    const balances = await dataSource.query<{ balance_micro: string }[]>(
      `SELECT balance_micro FROM ledger_accounts WHERE kind = 'client_wallet' AND owner_uuid = $1`,
      [client],
    );
    expect(balances).toEqual([{ balance_micro: (10n * SSL).toString() }]);
  });

  it('should take its locks in id order, so a transaction locking in id order never deadlocks with it', async () => {
    const [low, high] = [await newServer(), await newServer()].sort();
    const [first, second] = [await newClient(10), await newClient(10)];
    // Another writer (a report batch, say) holds the low server's listing ...
    const other = new Client({ connectionString: db.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(`SELECT 1 FROM market_listings WHERE server_id = $1 FOR UPDATE`, [low]);
      // ... while a batch buys the high server first, then the low one ...
      const outcomes = Promise.all([
        writer.write(purchase(first, high!)),
        writer.write(purchase(second, low!)),
      ]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      // ... and then wants the high one: it must get it, not wait for the batch.
      await other.query(`SELECT 1 FROM market_listings WHERE server_id = $1 FOR UPDATE`, [high]);
      await other.query('COMMIT');
      expect((await outcomes).map((o) => o.status)).toEqual(['written', 'written']);
    } finally {
      await other.end();
    }
  });

  it('should fail one purchase the database refuses and commit the others of its batch', async () => {
    const [client, other] = [await newClient(10), await newClient(10)];
    const server = await newServer();
    const taken = randomUUID();
    await dataSource.query(
      `INSERT INTO subscriptions (id, owner_uuid, vless_uuid, status, billing_cycle, expires_at)
       VALUES ($1, $2, gen_random_uuid(), 'expired', 'monthly', now())`,
      [taken, other],
    );
    const [failed, written] = await Promise.allSettled([
      writer.write(purchase(client, server, { subscriptionId: taken, key: 'dup' })),
      writer.write(purchase(other, server)),
    ]);
    expect(failed.status).toBe('rejected');
    expect((failed as PromiseRejectedResult).reason).toBeInstanceOf(PurchaseFailed);
    expect((failed as PromiseRejectedResult).reason.sqlState).toBe('23505');
    expect(written).toMatchObject({ status: 'fulfilled', value: { status: 'written' } });
    // Nothing of the failed one stays: money, key, client place.
    expect(
      await count(`SELECT count(*)::int AS n FROM ledger_transactions WHERE subscription_id = $1`, [
        taken,
      ]),
    ).toBe(0);
    const balances = await dataSource.query<{ balance_micro: string }[]>(
      `SELECT balance_micro FROM ledger_accounts WHERE kind = 'client_wallet' AND owner_uuid = $1`,
      [client],
    );
    expect(balances).toEqual([{ balance_micro: (10n * SSL).toString() }]);
    expect(
      await count(`SELECT count(*)::int AS n FROM idempotency_keys WHERE owner_uuid = $1`, [
        client,
      ]),
    ).toBe(0);
    expect(
      await count(`SELECT count(*)::int AS n FROM server_clients WHERE server_id = $1`, [server]),
    ).toBe(1);
    expect(await ledgerViolations(db.url)).toEqual([]);
  });
});
