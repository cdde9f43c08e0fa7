import { DataSource } from 'typeorm';
import { depositSsl, ledgerViolations } from '../../test/support/ledger';
import { insertAccount, insertServers } from '../../test/support/market-fixtures';
import { subscriptionServices } from '../../test/support/subscription-services';
import { walletBalance } from '../../test/support/subscriptions';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import type { ActiveSession } from '../auth/auth.repository';
import { queryRows } from '../common/sql';
import { dataSourceOptions } from '../database/data-source';

const SSL = 1_000_000n;
const HOUR = 3_600_000;
let db: TestDatabase;
let dataSource: DataSource;
let services: ReturnType<typeof subscriptionServices>;
const now = new Date();

beforeAll(async () => {
  db = await createTestDatabase();
  dataSource = new DataSource({ ...dataSourceOptions(db.url), extra: { max: 20 } });
  await dataSource.initialize();
  services = subscriptionServices(dataSource, { now: () => now });
});
afterAll(async () => {
  await services.purchases.onModuleDestroy();
  await dataSource.destroy();
  await db.drop();
});
afterEach(async () => expect(await ledgerViolations(db.url)).toEqual([]));

/** A client with `ssl` in its wallet that bought a monthly subscription to two servers (20 SSL). */
async function bought(ssl: number): Promise<{ client: string; id: string }> {
  const operator = await insertAccount(dataSource, { userType: 'node' });
  const client = await insertAccount(dataSource, { userType: 'client' });
  await depositSsl(db.url, client, ssl);
  const serverIds = await insertServers(
    dataSource,
    [{ ownerUuid: operator }, { ownerUuid: operator }],
    now,
  );
  const session = { account: { uuid: client, userType: 'client' } } as ActiveSession;
  const created = await services.purchase.create(
    session,
    { uuid: client, serverIds, billingCycle: 'monthly' },
    undefined,
  );
  return { client, id: created.subscriptionId };
}

async function setRow(id: string, sql: string, params: unknown[] = []): Promise<void> {
  await dataSource.query(`UPDATE subscriptions SET ${sql} WHERE id = $1`, [id, ...params]);
}

async function ledgerCount(id: string, type: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    dataSource,
    `SELECT count(*)::int AS n FROM ledger_transactions WHERE subscription_id = $1 AND type = $2`,
    [id, type],
  );
  return row!.n;
}

describe('SubscriptionPurchaseService (real database)', () => {
  it('should debit the period and store the subscription with its URL', async () => {
    const { client, id } = await bought(50);
    expect(await walletBalance(dataSource, client)).toBe(30n * SSL);
    const [listed] = await services.views.listActive(client);
    expect(listed).toMatchObject({ id, serverCount: 2, status: 'active' });
    expect(listed!.subscriptionUrl).toMatch(/^https:\/\/scn\.test\/sub\//);
  });
});

describe('SubscriptionPaidChangesService (real database)', () => {
  it('should take one payment when ten activations of an expired subscription race', async () => {
    const { client, id } = await bought(100);
    await setRow(id, `status = 'expired'`);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => services.paidChanges.activate(client, id, undefined)),
    );
    const refused = results.filter((result) => result.status === 'rejected');
    expect(results.length - refused.length).toBe(1);
    for (const result of refused) expect(result.reason).toMatchObject({ code: 'not_paused' });
    expect(await ledgerCount(id, 'activation')).toBe(1);
    expect(await walletBalance(dataSource, client)).toBe(60n * SSL);
  });

  it('should pay once and answer alike when one Idempotency-Key is sent five times at once', async () => {
    const { client, id } = await bought(100);
    await setRow(id, `status = 'expired'`);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => services.paidChanges.activate(client, id, 'activate-1')),
    );
    expect(new Set(answers.map((answer) => answer.paymentId)).size).toBe(1);
    expect(await ledgerCount(id, 'activation')).toBe(1);
    expect(await walletBalance(dataSource, client)).toBe(60n * SSL);
  });
});

describe('SubscriptionLifecycleService (real database)', () => {
  it('should pause once when five pauses race, and refuse an id that is not a uuid', async () => {
    const { client, id } = await bought(20);
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => services.lifecycle.pause(client, id)),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const [pauses] = await queryRows<{ n: number }>(
      dataSource,
      `SELECT count(*)::int AS n FROM subscription_pauses WHERE subscription_id = $1`,
      [id],
    );
    expect(pauses!.n).toBe(1);
    await expect(services.lifecycle.pause(client, 'not-a-uuid')).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});

describe('SubscriptionBillingService (real database)', () => {
  it('should renew an ended period once when two runs race', async () => {
    const { client, id } = await bought(100);
    await setRow(id, `expires_at = $2`, [new Date(now.getTime() - HOUR)]);
    const runs = await Promise.all([services.billing.settleDue(), services.billing.settleDue()]);
    expect(runs.reduce((sum, run) => sum + run.renewed, 0)).toBe(1);
    const [renewals] = await queryRows<{ n: number }>(
      dataSource,
      `SELECT count(*)::int AS n FROM ledger_transactions WHERE external_ref = $1`,
      [`renewal:${id}:2`],
    );
    expect(renewals!.n).toBe(1);
    expect(await walletBalance(dataSource, client)).toBe(60n * SSL);
  });
});
