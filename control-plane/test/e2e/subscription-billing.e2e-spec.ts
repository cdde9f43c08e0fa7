import { subscriptionCreationResponseSchema, subscriptionsResponseSchema } from '@scn/proto';
import { SubscriptionBillingJob } from '../../src/subscriptions/subscription-billing.job';
import { registerAccount } from '../support/accounts';
import { depositThroughChain, type FundingChain } from '../support/chain-deposits';
import { useFundedApp } from '../support/funded-app';
import { ledgerViolations } from '../support/ledger';
import { insertAccount, insertServers } from '../support/market-fixtures';
import { buy, clientSetOf, walletBalance } from '../support/subscriptions';
import type { TestApp } from '../support/test-app';

const SSL = 1_000_000n;
const HOUR = 3_600_000;
let now = new Date('2026-11-20T12:00:00.000Z');
let t: TestApp;
let funding: FundingChain;
let operator: string;

// The chain keeps the test clock too: deposits made after it moves have matching block times.
useFundedApp({ now: () => now, env: { LAUNCH_PERIOD_ENDS: '2026-06-30' } }, async (app, chain) => {
  t = app;
  funding = chain;
  operator = await insertAccount(t.db);
});

const job = () => t.app.get(SubscriptionBillingJob);

/** A client with `ssl` in the wallet after buying one server for one period. */
async function subscribed(cycle: 'monthly' | 'hourly', ssl: number) {
  const client = await registerAccount(t, { userType: 'client' });
  await depositThroughChain(t, funding, client, 10 + ssl);
  // Reported now: the server is fresh whatever the test clock says.
  const [server] = await insertServers(t.db, [{ ownerUuid: operator, tier: 'tier4' }], now);
  const body = subscriptionCreationResponseSchema.parse(
    (await buy(t, client, [server!], { billingCycle: cycle }).expect(200)).body,
  );
  return { client, server: server!, id: body.subscriptionId, uuid: body.subscription.uuid };
}

/**
 * The server reports at the test clock's time: a renewal charges only servers that can serve
 *, and one silent since the purchase is hidden by staleness 100 hours later.
 */
async function reportedNow(serverId: string) {
  await t.db.query(
    `UPDATE servers SET last_report_at = $2, reliability_at_report = 100, below_threshold_since = NULL
     WHERE id = $1`,
    [serverId, now],
  );
}

async function row(id: string) {
  const [found] = await t.db.query<{ status: string; expires_at: Date; period_index: number }>(
    `SELECT status, expires_at, period_index FROM subscriptions WHERE id = $1`,
    [id],
  );
  return found!;
}

describe('SubscriptionBillingJob', () => {
  it('should renew an hourly block once per period when the wallet can pay, and credit the operator frozen', async () => {
    const { client, id, server, uuid } = await subscribed('hourly', 14);
    const start = now;
    now = new Date(start.getTime() + 99 * HOUR);
    expect(await job().runOnce()).toMatchObject({ renewed: 0, expired: 0 });

    now = new Date(start.getTime() + 100 * HOUR + 30_000);
    await reportedNow(server);
    const operatorBefore = await walletBalance(t.db, operator, 'node_wallet');
    // Two replicas' minutes at once, then the next minute: one renewal.
    await Promise.all([job().runOnce(), job().runOnce()]);
    await job().runOnce();
    expect(await row(id)).toEqual({
      status: 'active',
      expires_at: new Date(start.getTime() + 200 * HOUR),
      period_index: 2,
    });
    expect(await walletBalance(t.db, client.uuid)).toBe(4n * SSL);
    expect(await walletBalance(t.db, operator, 'node_wallet')).toBe(operatorBefore + 10n * SSL);
    const renewal = await t.db.query<{ type: string; duration: string }>(
      `SELECT type, duration FROM ledger_transactions WHERE external_ref = $1`,
      [`renewal:${id}:2`],
    );
    expect(renewal).toEqual([{ type: 'subscription', duration: '100hours' }]);
    expect((await clientSetOf(t.db, server)).uuids).toEqual([uuid]);

    // The next block cannot be paid: the subscription expires and leaves the node.
    now = new Date(start.getTime() + 200 * HOUR);
    await reportedNow(server);
    const versionBefore = (await clientSetOf(t.db, server)).version;
    expect(await job().runOnce()).toMatchObject({ expired: 1 });
    expect((await row(id)).status).toBe('expired');
    const set = await clientSetOf(t.db, server);
    expect(set.uuids).toEqual([]);
    expect(set.version).toBeGreaterThan(versionBefore);
    expect(await walletBalance(t.db, client.uuid)).toBe(4n * SSL);

    // Expired subscriptions are listed with the paused ones; activating pays a new block.
    const paused = await t
      .http()
      .get(`/api/clients/paused-subscriptions/${client.uuid}`)
      .set('Cookie', client.cookie)
      .expect(200);
    expect(subscriptionsResponseSchema.parse(paused.body).subscriptions).toMatchObject([
      { id, status: 'expired', remainingHours: 0, activationPrice: 10 },
    ]);
    await t
      .http()
      .post(`/api/clients/subscription/${client.uuid}/${id}/activate`)
      .set('Cookie', client.cookie)
      .expect(402);
    // The smallest deposit (6 SSL) brings the wallet to the 10 SSL price of one block.
    await depositThroughChain(t, funding, client, 6);
    await t
      .http()
      .post(`/api/clients/subscription/${client.uuid}/${id}/activate`)
      .set('Cookie', client.cookie)
      .expect(200);
    expect((await clientSetOf(t.db, server)).uuids).toEqual([uuid]);
    expect(await walletBalance(t.db, client.uuid)).toBe(0n);
    expect(await ledgerViolations(t.db.url)).toEqual([]);
  });

  it('should expire a monthly subscription after 30 days without funds', async () => {
    const { id, server } = await subscribed('monthly', 0);
    now = new Date(now.getTime() + 30 * 24 * HOUR - 60_000);
    await job().runOnce();
    expect((await row(id)).status).toBe('active');
    now = new Date(now.getTime() + 60_000);
    await job().runOnce();
    expect((await row(id)).status).toBe('expired');
    expect((await clientSetOf(t.db, server)).uuids).toEqual([]);
  });

  it('should renew for free during the launch period', async () => {
    const saved = now;
    now = new Date('2026-06-01T00:00:00.000Z');
    try {
      const { client, id, server } = await subscribed('hourly', 0);
      now = new Date(now.getTime() + 100 * HOUR);
      await reportedNow(server);
      await job().runOnce();
      expect(await row(id)).toMatchObject({ status: 'active', period_index: 2 });
      expect(await walletBalance(t.db, client.uuid)).toBe(10n * SSL);
    } finally {
      now = saved;
    }
  });

  it('should not touch a deleted subscription', async () => {
    const { client, id } = await subscribed('hourly', 10);
    await t
      .http()
      .delete(`/api/clients/subscription/${client.uuid}/${id}`)
      .set('Cookie', client.cookie)
      .expect(200);
    now = new Date(now.getTime() + 101 * HOUR);
    await job().runOnce();
    expect((await row(id)).status).toBe('deleted');
    expect(await walletBalance(t.db, client.uuid)).toBe(10n * SSL);
  });
});

describe('auto-renew', () => {
  it('should let a subscription with auto-renew off expire at the end of its period, unpaid', async () => {
    const { client, id, server } = await subscribed('hourly', 50);
    const start = now;
    const off = await t
      .http()
      .post(`/api/clients/subscription/${client.uuid}/${id}/auto-renew`)
      .set('Cookie', client.cookie)
      .send({ autoRenew: false })
      .expect(200);
    expect(off.body.subscription.autoRenew).toBe(false);

    now = new Date(start.getTime() + 100 * HOUR + 30_000);
    await reportedNow(server);
    await job().runOnce();
    expect((await row(id)).status).toBe('expired');
    expect((await clientSetOf(t.db, server)).uuids).toEqual([]);
    expect(await walletBalance(t.db, client.uuid)).toBe(50n * SSL);
    expect(await ledgerViolations(t.db.url)).toEqual([]);
  });

  it('should refuse a bad body and another client’s subscription', async () => {
    const { client, id } = await subscribed('monthly', 0);
    const other = await registerAccount(t, { userType: 'client' });
    const path = `/api/clients/subscription/${client.uuid}/${id}/auto-renew`;
    const bad = await t
      .http()
      .post(path)
      .set('Cookie', client.cookie)
      .send({ autoRenew: 'no' })
      .expect(400);
    expect(bad.body.message).toBe('autoRenew must be true or false');
    await t.http().post(path).set('Cookie', other.cookie).send({ autoRenew: false }).expect(403);
    await t
      .http()
      .post(`/api/clients/subscription/${other.uuid}/${id}/auto-renew`)
      .set('Cookie', other.cookie)
      .send({ autoRenew: false })
      .expect(404);
    const [stored] = await t.db.query<{ auto_renew: boolean }>(
      `SELECT auto_renew FROM subscriptions WHERE id = $1`,
      [id],
    );
    expect(stored).toEqual({ auto_renew: true });
  });
});
