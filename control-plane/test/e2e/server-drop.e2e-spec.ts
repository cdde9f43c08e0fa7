import {
  subscriptionCreationResponseSchema,
  subscriptionsResponseSchema,
  type Subscription,
} from '@scn/proto';
import type { Socket } from 'socket.io-client';
import { ReliabilitySweepJob } from '../../src/agent-reports/reliability-sweep.job';
import { ServerDropJob } from '../../src/subscriptions/server-drop.job';
import { SubscriptionBillingJob } from '../../src/subscriptions/subscription-billing.job';
import { registerAccount } from '../support/accounts';
import {
  depositThroughChain,
  type FundingChain,
  startFundingChain,
} from '../support/chain-deposits';
import { ledgerViolations } from '../support/ledger';
import { insertAccount, insertServers } from '../support/market-fixtures';
import { buy, clientSetOf, platformRevenue, walletBalance } from '../support/subscriptions';
import { watchServerList } from '../support/realtime';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Clients never pay for a server that cannot serve them. Renewals and activations
 * drop hidden (below 95%), banned and deleted servers instead of charging for them, and the
 * unused paid time on a server that stops serving mid-period is refunded pro rata, once.
 */
const SSL = 1_000_000n;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let now = new Date('2026-11-20T12:00:00.000Z');
let t: TestApp;
let socket: Socket;
const events: Array<{ reason: string }> = [];
/** Clients are funded through real deposits; the chain's block times follow the moved clock. */
let funding: FundingChain;

beforeAll(async () => {
  funding = await startFundingChain({ now: () => now.getTime() });
  t = await startTestApp(
    { ...funding.env, LAUNCH_PERIOD_ENDS: '2026-06-30' },
    { clock: { now: () => now } },
  );
  socket = await watchServerList(t, events);
});
afterAll(async () => {
  socket?.close();
  await t?.close();
  await funding?.stop();
});

const billing = () => t.app.get(SubscriptionBillingJob);
const dropJob = () => t.app.get(ServerDropJob);

/** Sets a server's reliability state as reports and the sweep would have left it. */
async function serverState(
  id: string,
  state: {
    reliability?: number;
    lastReportAt?: Date;
    belowThresholdSince?: Date | null;
    bannedAt?: Date | null;
  },
) {
  await t.db.query(
    `UPDATE servers SET reliability_at_report = $2, last_report_at = $3,
       below_threshold_since = $4, banned_at = $5 WHERE id = $1`,
    [
      id,
      state.reliability ?? 100,
      state.lastReportAt ?? now,
      state.belowThresholdSince ?? null,
      state.bannedAt ?? null,
    ],
  );
}

/**
 * The server drop job has run every minute since `since` (its heartbeat), as it does while the
 * control plane is up; the tests move the clock by hours and days between runs.
 */
async function watching(since: Date) {
  await t.db.query(
    `INSERT INTO job_heartbeats (job, last_run_at, watching_since) VALUES ('server-drop', $1, $2)
     ON CONFLICT (job) DO UPDATE SET last_run_at = $1, watching_since = $2`,
    [now, since],
  );
}

async function dropsOf(subscriptionId: string) {
  return t.db.query<{
    server_id: string;
    reason: string;
    refund_micro: string;
    period_index: number;
  }>(
    `SELECT server_id, reason, refund_micro::text AS refund_micro, period_index
     FROM subscription_server_drops WHERE subscription_id = $1 ORDER BY reason`,
    [subscriptionId],
  );
}

async function refundsOf(subscriptionId: string) {
  return t.db.query<{ id: string }>(
    `SELECT id FROM ledger_transactions WHERE subscription_id = $1 AND type = 'refund'`,
    [subscriptionId],
  );
}

async function listed(
  client: { uuid: string; cookie: string },
  list: 'subscriptions' | 'paused-subscriptions',
): Promise<Subscription[]> {
  const response = await t
    .http()
    .get(`/api/clients/${list}/${client.uuid}`)
    .set('Cookie', client.cookie)
    .expect(200);
  return subscriptionsResponseSchema.parse(response.body).subscriptions;
}

async function until(predicate: () => boolean) {
  const deadline = Date.now() + 5000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`no event; got ${JSON.stringify(events)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('renewal', () => {
  it('should charge and reward only the servers that can serve, dropping hidden and banned ones with a refund of the time they could not serve', async () => {
    const [opA, opB, opC, opD] = [
      await insertAccount(t.db),
      await insertAccount(t.db),
      await insertAccount(t.db),
      await insertAccount(t.db),
    ];
    const start = now;
    const [a, b, c, d] = (await insertServers(
      t.db,
      [
        { ownerUuid: opA!, name: 'Alpha' },
        { ownerUuid: opB!, name: 'Bravo' },
        { ownerUuid: opC!, name: 'Charlie' },
        { ownerUuid: opD!, name: 'Delta' },
      ],
      now,
    )) as [string, string, string, string];
    const client = await registerAccount(t, { userType: 'client' });
    await depositThroughChain(t, funding, client, 60);
    const bought = subscriptionCreationResponseSchema.parse(
      (await buy(t, client, [a, b, c, d], { billingCycle: 'hourly' }).expect(200)).body,
    );
    const id = bought.subscriptionId;
    const uuid = bought.subscription.uuid;
    expect(await walletBalance(t.db, client.uuid)).toBe(20n * SSL);
    const revenueBefore = await platformRevenue(t.db);

    // The block ends at start + 100 h. Alpha reports; Bravo went under 95% two hours before
    // the end; Charlie was banned an hour before the end; Delta went under 95% five minutes
    // ago (a blip: kept and charged; if it lasts an hour the period comes back whole).
    now = new Date(start.getTime() + 100 * HOUR + 30_000);
    await watching(start);
    await serverState(a, {});
    await serverState(b, {
      reliability: 90,
      belowThresholdSince: new Date(start.getTime() + 98 * HOUR),
    });
    await serverState(c, { bannedAt: new Date(start.getTime() + 99 * HOUR) });
    await serverState(d, {
      reliability: 90,
      belowThresholdSince: new Date(now.getTime() - 5 * 60_000),
    });

    // Two replicas' minutes at once, then the next minute: one renewal, one drop each.
    events.length = 0;
    await Promise.all([billing().runOnce(), billing().runOnce()]);
    await billing().runOnce();

    const [renewal] = await t.db.query<{ server_count: number; paid: string }>(
      `SELECT t.server_count, (-e.amount_micro)::text AS paid FROM ledger_transactions t
       JOIN ledger_entries e ON e.transaction_id = t.id
       JOIN ledger_accounts acc ON acc.id = e.account_id AND acc.kind = 'client_wallet'
       WHERE t.external_ref = $1`,
      [`renewal:${id}:2`],
    );
    expect(renewal).toEqual({ server_count: 2, paid: String(20n * SSL) });
    const rewards = await t.db.query<{ external_ref: string }>(
      `SELECT external_ref FROM ledger_transactions WHERE external_ref LIKE $1 ORDER BY 1`,
      [`renewal:${id}:2:reward:%`],
    );
    expect(rewards.map((r) => r.external_ref)).toEqual(
      [opA!, opD!].sort().map((op) => `renewal:${id}:2:reward:${op}`),
    );

    // Refunds of the time they could not serve, 10 SSL per 100 h: Bravo 2 h = 0.2 SSL, Charlie
    // 1 h = 0.1 SSL, each given back by its operator out of its reward.
    expect(await dropsOf(id)).toEqual([
      { server_id: c, reason: 'banned', refund_micro: '100000', period_index: 1 },
      { server_id: b, reason: 'hidden', refund_micro: '200000', period_index: 1 },
    ]);
    expect(await refundsOf(id)).toHaveLength(2);
    expect(await walletBalance(t.db, client.uuid)).toBe(300_000n);
    expect(await walletBalance(t.db, opA!, 'node_wallet')).toBe(20n * SSL);
    expect(await walletBalance(t.db, opD!, 'node_wallet')).toBe(20n * SSL);
    expect(await walletBalance(t.db, opB!, 'node_wallet')).toBe(10n * SSL - 200_000n);
    expect(await walletBalance(t.db, opC!, 'node_wallet')).toBe(10n * SSL - 100_000n);
    expect(await platformRevenue(t.db)).toBe(revenueBefore);
    await until(() => events.some((e) => e.reason === 'withdrawn'));

    expect((await clientSetOf(t.db, a)).uuids).toEqual([uuid]);
    expect((await clientSetOf(t.db, d)).uuids).toEqual([uuid]);
    expect((await clientSetOf(t.db, b)).uuids).toEqual([]);
    expect((await clientSetOf(t.db, c)).uuids).toEqual([]);

    const [shown] = await listed(client, 'subscriptions');
    expect(shown).toMatchObject({ id, serverIds: [a, d], serverCount: 2, billingAmount: 20 });
    expect(shown!.withdrawnServers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: b,
          name: 'Bravo',
          reason: 'hidden',
          reasonText: 'hidden: reliability below 95%',
          refundMicro: '200000',
          refund: 0.2,
        }),
        expect.objectContaining({
          id: c,
          name: 'Charlie',
          reason: 'banned',
          reasonText: 'banned',
          refund: 0.1,
        }),
      ]),
    );
    expect(shown!.withdrawnServers).toHaveLength(2);
    expect(await ledgerViolations(t.db.url)).toEqual([]);
  });

  it('should not renew, and say why, when none of the servers can serve', async () => {
    const operator = await insertAccount(t.db);
    const [server] = (await insertServers(t.db, [{ ownerUuid: operator, name: 'Delta' }], now)) as [
      string,
    ];
    const client = await registerAccount(t, { userType: 'client' });
    await depositThroughChain(t, funding, client, 100);
    const bought = subscriptionCreationResponseSchema.parse(
      (await buy(t, client, [server], { billingCycle: 'hourly' }).expect(200)).body,
    );
    const start = now;
    now = new Date(now.getTime() + 100 * HOUR);
    await watching(start);
    await serverState(server, {
      reliability: 80,
      belowThresholdSince: new Date(now.getTime() - 2 * HOUR),
    });
    await billing().runOnce();

    // Its last 2 of 100 hours are given back: 0.2 SSL.
    expect(await walletBalance(t.db, client.uuid)).toBe(90n * SSL + 200_000n);
    const [stored] = await t.db.query<{ status: string; period_index: number }>(
      `SELECT status, period_index FROM subscriptions WHERE id = $1`,
      [bought.subscriptionId],
    );
    expect(stored).toEqual({ status: 'expired', period_index: 1 });
    const [shown] = await listed(client, 'paused-subscriptions');
    expect(shown).toMatchObject({ id: bought.subscriptionId, serverCount: 0, status: 'expired' });
    expect(shown!.withdrawnServers).toMatchObject([
      { id: server, reason: 'hidden', refundMicro: '200000' },
    ]);
    // Nothing left to activate: a clear refusal, no charge.
    const refused = await t
      .http()
      .post(`/api/clients/subscription/${client.uuid}/${bought.subscriptionId}/activate`)
      .set('Cookie', client.cookie)
      .expect(409);
    expect(refused.body.message).toMatch(/None of the servers of this subscription can serve you/);
    expect(await walletBalance(t.db, client.uuid)).toBe(90n * SSL + 200_000n);
    expect(await ledgerViolations(t.db.url)).toEqual([]);
  });

  it('should activate an expired subscription for its servers that can serve only', async () => {
    const operator = await insertAccount(t.db);
    const [good, bad] = (await insertServers(
      t.db,
      [
        { ownerUuid: operator, name: 'Echo' },
        { ownerUuid: operator, name: 'Foxtrot' },
      ],
      now,
    )) as [string, string];
    const client = await registerAccount(t, { userType: 'client' });
    await depositThroughChain(t, funding, client, 20);
    const bought = subscriptionCreationResponseSchema.parse(
      (await buy(t, client, [good, bad], { billingCycle: 'hourly' }).expect(200)).body,
    );
    // No money for the next block: it expires with both servers.
    now = new Date(now.getTime() + 100 * HOUR);
    await serverState(good, {});
    await serverState(bad, {});
    await billing().runOnce();
    now = new Date(now.getTime() + HOUR);
    await serverState(good, {});
    await serverState(bad, { bannedAt: now });
    await depositThroughChain(t, funding, client, 10);
    const activated = await t
      .http()
      .post(`/api/clients/subscription/${client.uuid}/${bought.subscriptionId}/activate`)
      .set('Cookie', client.cookie)
      .expect(200);
    expect(activated.body).toMatchObject({ chargedMicro: String(10n * SSL) });
    expect(await walletBalance(t.db, client.uuid)).toBe(0n);
    expect((await clientSetOf(t.db, good)).uuids).toEqual([bought.subscription.uuid]);
    expect((await clientSetOf(t.db, bad)).uuids).toEqual([]);
    expect(await dropsOf(bought.subscriptionId)).toMatchObject([
      { server_id: bad, reason: 'banned', refund_micro: '0' },
    ]);
    expect(await ledgerViolations(t.db.url)).toEqual([]);
  });
});

describe('billing change', () => {
  it('should pay the new period only for the servers that can serve, refunding the banned one', async () => {
    const operator = await insertAccount(t.db);
    const start = now;
    const [kept, banned] = (await insertServers(
      t.db,
      [
        { ownerUuid: operator, name: 'Juliett' },
        { ownerUuid: operator, name: 'Kilo' },
      ],
      now,
    )) as [string, string];
    const client = await registerAccount(t, { userType: 'client' });
    await depositThroughChain(t, funding, client, 30);
    const bought = subscriptionCreationResponseSchema.parse(
      (await buy(t, client, [kept, banned], { billingCycle: 'monthly' }).expect(200)).body,
    );
    now = new Date(start.getTime() + 3 * DAY);
    await serverState(kept, {});
    await serverState(banned, { bannedAt: now });
    const changed = await t
      .http()
      .post(`/api/clients/subscription/${client.uuid}/${bought.subscriptionId}/change-type`)
      .set('Cookie', client.cookie)
      .send({ newBillingCycle: 'hourly' })
      .expect(200);
    // Kilo: 10 SSL x 27 of 30 days = 9 SSL back; the hourly block costs 10 SSL for Juliett only.
    expect(changed.body).toMatchObject({
      chargedMicro: String(10n * SSL),
      subscription: { serverIds: [kept], billingCycle: 'hourly' },
    });
    expect(await walletBalance(t.db, client.uuid)).toBe(9n * SSL);
    expect(await dropsOf(bought.subscriptionId)).toEqual([
      { server_id: banned, reason: 'banned', refund_micro: String(9n * SSL), period_index: 1 },
    ]);
    expect((await clientSetOf(t.db, banned)).uuids).toEqual([]);
    expect(await ledgerViolations(t.db.url)).toEqual([]);
  });
});

describe('during a paid period', () => {
  it('should drop a server hidden for an hour once, refund the unused time pro rata and tell the browser', async () => {
    const operator = await insertAccount(t.db);
    const start = now;
    const [down, up] = (await insertServers(
      t.db,
      [
        { ownerUuid: operator, name: 'Golf' },
        { ownerUuid: operator, name: 'Hotel' },
      ],
      now,
    )) as [string, string];
    const client = await registerAccount(t, { userType: 'client' });
    await depositThroughChain(t, funding, client, 20);
    const bought = subscriptionCreationResponseSchema.parse(
      (await buy(t, client, [down, up], { billingCycle: 'monthly' }).expect(200)).body,
    );
    const id = bought.subscriptionId;

    // Ten days in, Golf went under 95% half an hour ago: a blip for now, nothing happens.
    now = new Date(start.getTime() + 10 * DAY);
    const wentUnder = new Date(now.getTime() - 30 * 60_000);
    await serverState(down, { reliability: 80, belowThresholdSince: wentUnder });
    await serverState(up, {});
    await watching(start);
    expect(await dropsOf(id)).toEqual([]);
    await dropJob().runOnce();
    expect(await dropsOf(id)).toEqual([]);

    // Still under an hour and a half later: dropped, refunded from the moment it went under.
    now = new Date(wentUnder.getTime() + 90 * 60_000);
    await serverState(down, { reliability: 80, belowThresholdSince: wentUnder });
    await serverState(up, {});
    await watching(start);
    events.length = 0;
    await Promise.all([dropJob().runOnce(), dropJob().runOnce()]);
    await dropJob().runOnce();

    // 10 SSL x (30 days - (10 days - 30 min)) / 30 days = 6,673,611.1 -> 6,673,612.
    expect(await dropsOf(id)).toEqual([
      { server_id: down, reason: 'hidden', refund_micro: '6673612', period_index: 1 },
    ]);
    expect(await refundsOf(id)).toHaveLength(1);
    expect(await walletBalance(t.db, client.uuid)).toBe(6_673_612n);
    expect(await walletBalance(t.db, operator, 'node_wallet')).toBe(20n * SSL - 6_673_612n);
    expect((await clientSetOf(t.db, down)).uuids).toEqual([]);
    expect((await clientSetOf(t.db, up)).uuids).toEqual([bought.subscription.uuid]);
    await until(() => events.some((e) => e.reason === 'withdrawn'));

    const [shown] = await listed(client, 'subscriptions');
    expect(shown).toMatchObject({ id, status: 'active', serverIds: [up] });
    expect(shown!.withdrawnServers).toEqual([
      {
        id: down,
        name: 'Golf',
        reason: 'hidden',
        reasonText: 'hidden: reliability below 95%',
        unableSince: wentUnder.toISOString(),
        withdrawnAt: now.toISOString(),
        refund: 6.673612,
        refundMicro: '6673612',
      },
    ]);
    expect(await ledgerViolations(t.db.url)).toEqual([]);
  });

  it('should not drop servers that looked silent only because the control plane was down', async () => {
    const operator = await insertAccount(t.db);
    const [server] = (await insertServers(t.db, [{ ownerUuid: operator, name: 'Lima' }], now)) as [
      string,
    ];
    const client = await registerAccount(t, { userType: 'client' });
    await depositThroughChain(t, funding, client, 10);
    const bought = subscriptionCreationResponseSchema.parse(
      (await buy(t, client, [server], { billingCycle: 'monthly' }).expect(200)).body,
    );
    // We were down for three hours: the job last ran then, and no report came in meanwhile, so
    // the server scores 90 (docs/product/states.md#subscription-and-reliability-states: -10 after two silent hours), hidden for an hour.
    const outageStart = now;
    await watching(new Date(outageStart.getTime() - DAY));
    const lastReport = outageStart;
    now = new Date(outageStart.getTime() + 3 * HOUR);
    await serverState(server, { lastReportAt: lastReport });
    // The reliability sweep records when it went under 95% (two hours after its last report).
    await t.app.get(ReliabilitySweepJob).runOnce();
    await dropJob().runOnce();
    expect(await dropsOf(bought.subscriptionId)).toEqual([]);
    const [beat] = await t.db.query<{ watching_since: Date }>(
      `SELECT watching_since FROM job_heartbeats WHERE job = 'server-drop'`,
    );
    expect(beat!.watching_since).toEqual(now);

    // The server stays silent for an hour we watched (the job runs every minute): now it goes,
    // refunded from when its score went under 95%, two hours after its last report.
    const back = now;
    now = new Date(back.getTime() + HOUR);
    await watching(back);
    await t.app.get(ReliabilitySweepJob).runOnce();
    await dropJob().runOnce();
    expect(await dropsOf(bought.subscriptionId)).toMatchObject([
      { server_id: server, reason: 'hidden' },
    ]);
    // 10 SSL x (30 days - 2 hours) / 30 days = 9,972,222.2 -> 9,972,223.
    expect(await walletBalance(t.db, client.uuid)).toBe(9_972_223n);
    expect(await ledgerViolations(t.db.url)).toEqual([]);
  });

  it('should refund the clients of a server its operator deletes, and end a subscription left without servers', async () => {
    const operator = await registerAccount(t, { userType: 'node' });
    const [server] = (await insertServers(
      t.db,
      [{ ownerUuid: operator.uuid, name: 'India' }],
      now,
    )) as [string];
    const client = await registerAccount(t, { userType: 'client' });
    await depositThroughChain(t, funding, client, 10);
    const bought = subscriptionCreationResponseSchema.parse(
      (await buy(t, client, [server], { billingCycle: 'hourly' }).expect(200)).body,
    );
    // The operator has spent all but 1 SSL of its 10 SSL reward: the platform covers the rest.
    await t.db.query(
      `INSERT INTO ledger_accounts (id, kind, owner_uuid) VALUES (gen_random_uuid(), 'burn', '00000000-0000-0000-0000-000000000000')
       ON CONFLICT DO NOTHING`,
    );
    await t.db.query(
      `WITH tx AS (
         INSERT INTO ledger_transactions
           (id, type, initiator_uuid, description, description_code, description_values)
         VALUES (gen_random_uuid(), 'promotion', $1, 'test spend', 'promotion',
                 '{"plan": "basic", "server": "test"}') RETURNING id
       )
       INSERT INTO ledger_entries (transaction_id, account_id, amount_micro)
       SELECT tx.id, a.id, CASE WHEN a.kind = 'node_wallet' THEN -9000000 ELSE 9000000 END
       FROM tx, ledger_accounts a
       WHERE (a.kind = 'node_wallet' AND a.owner_uuid = $1) OR a.kind = 'burn'`,
      [operator.uuid],
    );
    const revenueBefore = await platformRevenue(t.db);

    now = new Date(now.getTime() + 25 * HOUR);
    events.length = 0;
    await t
      .http()
      .delete(`/nodes/server/${operator.uuid}/${server}`)
      .set('Authorization', `Bearer ${operator.token}`)
      .expect(200);

    // 10 SSL x 75 h / 100 h = 7.5 SSL: 1 SSL from the operator, 6.5 from the platform.
    expect(await walletBalance(t.db, client.uuid)).toBe(7_500_000n);
    expect(await walletBalance(t.db, operator.uuid, 'node_wallet')).toBe(0n);
    expect(await platformRevenue(t.db)).toBe(revenueBefore - 6_500_000n);
    expect(await dropsOf(bought.subscriptionId)).toMatchObject([
      { server_id: server, reason: 'deleted', refund_micro: '7500000' },
    ]);
    const [shown] = await listed(client, 'paused-subscriptions');
    expect(shown).toMatchObject({ id: bought.subscriptionId, status: 'expired', serverCount: 0 });
    expect(shown!.withdrawnServers).toMatchObject([
      {
        id: server,
        name: 'India',
        reason: 'deleted',
        reasonText: 'deleted by its operator',
        refund: 7.5,
      },
    ]);
    await until(() => events.some((e) => e.reason === 'withdrawn'));
    expect(await ledgerViolations(t.db.url)).toEqual([]);
  });
});
