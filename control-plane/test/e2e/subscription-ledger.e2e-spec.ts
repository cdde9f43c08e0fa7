import { SUBSCRIPTION_MESSAGES, subscriptionCreationResponseSchema } from '@scn/proto';
import { registerAccount } from '../support/accounts';
import { depositThroughChain, type FundingChain } from '../support/chain-deposits';
import { useFundedApp } from '../support/funded-app';
import { ledgerViolations } from '../support/ledger';
import { insertAccount, insertServers } from '../support/market-fixtures';
import { buy, clientSetOf, walletBalance } from '../support/subscriptions';
import type { TestApp } from '../support/test-app';

const SSL = 1_000_000n;
const now = new Date('2026-11-20T12:00:00.000Z');
let t: TestApp;
let funding: FundingChain;
let operator: string;

useFundedApp({ now: () => now, env: { LAUNCH_PERIOD_ENDS: '2026-06-30' } }, async (app, chain) => {
  t = app;
  funding = chain;
  operator = await insertAccount(t.db);
});

async function server(): Promise<string> {
  const [id] = await insertServers(t.db, [{ ownerUuid: operator, tier: 'tier4' }], now);
  return id!;
}

describe('purchases under concurrency', () => {
  it('should let exactly 10 of 200 simultaneous purchases through a balance that covers 10', async () => {
    const client = await registerAccount(t, { userType: 'client' });
    await depositThroughChain(t, funding, client, 100);
    const ids = [await server(), await server()];
    const operatorBefore = await walletBalance(t.db, operator, 'node_wallet');

    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => buy(t, client, [ids[i % 2]!])),
    );
    const ok = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 402);
    expect(ok).toHaveLength(10);
    expect(refused).toHaveLength(190);
    for (const response of refused) {
      expect(response.body).toMatchObject({
        success: false,
        message: 'Insufficient balance. You need 10.00 SSL but have 0.00 SSL.',
      });
    }
    expect(await walletBalance(t.db, client.uuid)).toBe(0n);
    expect(await walletBalance(t.db, operator, 'node_wallet')).toBe(operatorBefore + 100n * SSL);
    const subscriptions = await t.db.query(`SELECT id FROM subscriptions WHERE owner_uuid = $1`, [
      client.uuid,
    ]);
    expect(subscriptions).toHaveLength(10);
    const allowed = (await clientSetOf(t.db, ids[0]!)).uuids.length;
    expect(allowed + (await clientSetOf(t.db, ids[1]!)).uuids.length).toBe(10);
    expect(await ledgerViolations(t.db.url)).toEqual([]);
    const negative = await t.db.query(`SELECT id FROM ledger_accounts WHERE balance_micro < 0`);
    expect(negative).toEqual([]);
  });

  it('should never give a server more clients than its tier allows under concurrency', async () => {
    const [small] = await insertServers(t.db, [{ ownerUuid: operator, tier: 'tier1' }], now);
    const clients = await Promise.all(
      Array.from({ length: 4 }, () => registerAccount(t, { userType: 'client' })),
    );
    for (const client of clients) await depositThroughChain(t, funding, client, 100);
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => buy(t, clients[i % 4]!, [small!])),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(10);
    for (const response of responses.filter((r) => r.status !== 200)) {
      expect(response.status).toBe(409);
      expect(response.body.message).toBe(SUBSCRIPTION_MESSAGES.serverFull('Node'));
    }
    expect((await clientSetOf(t.db, small!)).uuids).toHaveLength(10);
    expect(await ledgerViolations(t.db.url)).toEqual([]);
  });
});

describe('Idempotency-Key', () => {
  it('should return the first answer and move nothing on a replay', async () => {
    const client = await registerAccount(t, { userType: 'client' });
    await depositThroughChain(t, funding, client, 50);
    const id = await server();
    const first = await buy(t, client, [id], { idempotencyKey: 'purchase-1' }).expect(200);
    const again = await buy(t, client, [id], { idempotencyKey: 'purchase-1' }).expect(200);
    const a = subscriptionCreationResponseSchema.parse(first.body);
    const b = subscriptionCreationResponseSchema.parse(again.body);
    expect(b.subscriptionId).toBe(a.subscriptionId);
    expect(b.subscriptionUrl).toBe(a.subscriptionUrl);
    expect(b.serverQrCodes).toEqual(a.serverQrCodes);
    expect(await walletBalance(t.db, client.uuid)).toBe(40n * SSL);
    expect(await clientSetOf(t.db, id)).toMatchObject({ uuids: [a.subscription.uuid] });

    // The same key with another request is refused; a new key buys again.
    const other = await server();
    const reused = await buy(t, client, [other], { idempotencyKey: 'purchase-1' }).expect(422);
    expect(reused.body.message).toBe(
      'This Idempotency-Key was already used for a different request',
    );
    await buy(t, client, [id], { idempotencyKey: 'purchase-2' }).expect(200);
    expect(await walletBalance(t.db, client.uuid)).toBe(30n * SSL);
    const bad = await buy(t, client, [id], { idempotencyKey: 'not a key!' }).expect(400);
    expect(bad.body.success).toBe(false);
  });

  it('should make 50 concurrent replays of one key pay once and answer the same', async () => {
    const client = await registerAccount(t, { userType: 'client' });
    await depositThroughChain(t, funding, client, 30);
    const id = await server();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => buy(t, client, [id], { idempotencyKey: 'once' })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(200));
    const subscriptionIds = new Set(responses.map((r) => r.body.subscriptionId as string));
    expect(subscriptionIds.size).toBe(1);
    expect(await walletBalance(t.db, client.uuid)).toBe(20n * SSL);
    const rows = await t.db.query(`SELECT id FROM subscriptions WHERE owner_uuid = $1`, [
      client.uuid,
    ]);
    expect(rows).toHaveLength(1);
    expect(await ledgerViolations(t.db.url)).toEqual([]);
  });

  it('should let a purchase refused for funds be retried with the same key after a deposit', async () => {
    const client = await registerAccount(t, { userType: 'client' });
    const id = await server();
    await buy(t, client, [id], { idempotencyKey: 'retry-me' }).expect(402);
    await depositThroughChain(t, funding, client, 10);
    await buy(t, client, [id], { idempotencyKey: 'retry-me' }).expect(200);
    expect(await walletBalance(t.db, client.uuid)).toBe(0n);
  });
});
