import { randomUUID } from 'node:crypto';
import { WALLET_MESSAGES, WALLET_ROUTES, type WalletData } from '@scn/proto';
import { registerAccount } from '../support/accounts';
import {
  depositThroughChain,
  type FundingChain,
  startFundingChain,
} from '../support/chain-deposits';
import { startTestApp, type TestApp } from '../support/test-app';

let now = new Date('2026-11-22T12:00:00Z');
const clock = { now: () => now };
let t: TestApp;
let funding: FundingChain;
beforeAll(async () => {
  funding = await startFundingChain({ now: () => now.getTime() });
  t = await startTestApp(funding.env, { clock });
});
afterAll(async () => {
  await t.close();
  await funding.stop();
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A node reward written the way a purchase writes it: frozen for 60 days. */
async function rewardOperator(operator: string, ssl: number, frozenUntil: Date) {
  await t.db.query('BEGIN');
  try {
    await t.db.query(
      `INSERT INTO ledger_accounts (id, kind, owner_uuid) VALUES ($1, 'node_wallet', $2)
       ON CONFLICT DO NOTHING`,
      [randomUUID(), operator],
    );
    await t.db.query(
      `INSERT INTO ledger_accounts (id, kind, owner_uuid) VALUES ($1, 'platform_revenue', '00000000-0000-0000-0000-000000000000')
       ON CONFLICT DO NOTHING`,
      [randomUUID()],
    );
    const id = randomUUID();
    await t.db.query(
      `INSERT INTO ledger_transactions (id, type, server_count) VALUES ($1, 'subscription_reward', 1)`,
      [id],
    );
    await t.db.query(
      `INSERT INTO ledger_entries (transaction_id, account_id, amount_micro, frozen_until)
       SELECT $1::uuid, id, $2::bigint, $3::timestamptz FROM ledger_accounts WHERE kind = 'node_wallet' AND owner_uuid = $4
       UNION ALL
       SELECT $1::uuid, id, -($2::bigint), NULL FROM ledger_accounts WHERE kind = 'platform_revenue'`,
      [id, ssl * 1_000_000, frozenUntil, operator],
    );
    await t.db.query('COMMIT');
  } catch (error) {
    await t.db.query('ROLLBACK');
    throw error;
  }
}

describe('wallet calls', () => {
  it('should show an empty client wallet before any movement, without creating it', async () => {
    const client = await registerAccount(t);
    const res = await t
      .http()
      .get(WALLET_ROUTES.clientWallet(client.uuid))
      .set(bearer(client.token!))
      .expect(200);
    expect(res.body).toMatchObject({
      success: true,
      data: { walletType: 'client', balanceMicro: '0', transactions: [], hasMore: false },
    });
    expect(
      await t.db.query(`SELECT 1 FROM ledger_accounts WHERE owner_uuid = $1`, [client.uuid]),
    ).toEqual([]);
  });

  it('should list deposits newest first with their type and signed amount, paged', async () => {
    const client = await registerAccount(t);
    for (const ssl of [6, 7, 8]) await depositThroughChain(t, funding, client, ssl);
    const page1 = await t
      .http()
      .get(`${WALLET_ROUTES.clientWallet(client.uuid)}?limit=2&t=123`)
      .set(bearer(client.token!))
      .expect(200);
    const data = page1.body.data as WalletData;
    expect(data.balanceMicro).toBe('21000000');
    expect(data.transactions.map((x) => x.amountMicro)).toEqual(['8000000', '7000000']);
    expect(data.transactions[0]!.type).toBe('deposit');
    expect(data.hasMore).toBe(true);
    const page2 = await t
      .http()
      .get(`${WALLET_ROUTES.clientWallet(client.uuid)}?limit=2&before=${data.transactions[1]!.id}`)
      .set(bearer(client.token!))
      .expect(200);
    expect(page2.body.data.transactions.map((x: { amountMicro: string }) => x.amountMicro)).toEqual(
      ['6000000'],
    );
    expect(page2.body.data.hasMore).toBe(false);
  });

  it('should show a node wallet’s frozen rewards until they expire', async () => {
    const operator = await registerAccount(t, { userType: 'node' });
    const day = 86_400_000;
    await rewardOperator(operator.uuid, 10, new Date(now.getTime() + 60 * day));
    await rewardOperator(operator.uuid, 10, new Date(now.getTime() + day));
    const read = async () =>
      (
        await t
          .http()
          .get(WALLET_ROUTES.nodeWallet(operator.uuid))
          .set(bearer(operator.token!))
          .expect(200)
      ).body.data as WalletData;
    const before = await read();
    expect(before).toMatchObject({
      walletType: 'node',
      balanceMicro: '20000000',
      frozenAmountMicro: '20000000',
      availableMicro: '0',
    });
    expect(before.frozenAmounts).toHaveLength(2);
    now = new Date(now.getTime() + 2 * day);
    const after = await read();
    expect(after).toMatchObject({ frozenAmountMicro: '10000000', availableMicro: '10000000' });
  });

  it('should refuse another account’s wallet and the other wallet type', async () => {
    const client = await registerAccount(t);
    const other = await registerAccount(t);
    const operator = await registerAccount(t, { userType: 'node' });
    await t
      .http()
      .get(WALLET_ROUTES.clientWallet(other.uuid))
      .set(bearer(client.token!))
      .expect(403);
    await t
      .http()
      .get(WALLET_ROUTES.nodeWallet(client.uuid))
      .set(bearer(client.token!))
      .expect(403);
    await t
      .http()
      .get(WALLET_ROUTES.clientWallet(operator.uuid))
      .set(bearer(operator.token!))
      .expect(403);
    await t.http().get(WALLET_ROUTES.clientWallet(client.uuid)).expect(401);
  });

  it('should answer 400 to a bad page query', async () => {
    const client = await registerAccount(t);
    for (const query of ['limit=0', 'limit=1000000000', 'limit=abc', 'before=x', 'before=-1']) {
      const res = await t
        .http()
        .get(`${WALLET_ROUTES.clientWallet(client.uuid)}?${query}`)
        .set(bearer(client.token!))
        .expect(400);
      expect(res.body.success).toBe(false);
    }
  });

  it('should create the wallet of the session’s own type only, idempotently', async () => {
    const client = await registerAccount(t);
    await t.http().post(WALLET_ROUTES.createClientWallet).set(bearer(client.token!)).expect(200);
    await t.http().post(WALLET_ROUTES.createClientWallet).set(bearer(client.token!)).expect(200);
    await t.http().post(WALLET_ROUTES.createNodeWallet).set(bearer(client.token!)).expect(403);
    const rows = await t.db.query(`SELECT kind FROM ledger_accounts WHERE owner_uuid = $1`, [
      client.uuid,
    ]);
    expect(rows).toEqual([{ kind: 'client_wallet' }]);
  });

  it('should refuse every call that lets a client name an amount', async () => {
    const client = await registerAccount(t);
    const operator = await registerAccount(t, { userType: 'node' });
    const pay = await t
      .http()
      .post(WALLET_ROUTES.paySubscription(client.uuid))
      .set(bearer(client.token!))
      .send({ serverId: 'x', serverCount: 1, duration: '1month', amount: 0 })
      .expect(410);
    expect(pay.body.message).toBe(WALLET_MESSAGES.payThroughSubscription);
    const reward = await t
      .http()
      .post(WALLET_ROUTES.nodeReward(operator.uuid))
      .set(bearer(operator.token!))
      .send({ serverId: 'x', amount: 1000, reason: 'subscription_reward' })
      .expect(403);
    expect(reward.body.message).toBe(WALLET_MESSAGES.rewardsAreServerSide);
    // Add-social-reward records a share like record-share; it never takes an amount.
    const social = await t
      .http()
      .post(WALLET_ROUTES.socialReward)
      .set(bearer(client.token!))
      .send({
        userId: client.uuid,
        amount: 1,
        platform: 'twitter',
        postUrl: 'https://x.com/a/status/1',
        timeZone: 'UTC',
      })
      .expect(400);
    expect(social.body.message).toBe('Unknown field: amount');
    const withdraw = await t
      .http()
      .post(WALLET_ROUTES.withdraw(operator.uuid))
      .set(bearer(operator.token!))
      .send({ amount: 1, destinationAddress: 'abc' })
      .expect(403);
    expect(withdraw.body.message).toBe(WALLET_MESSAGES.withdrawalsSuspended);
    expect(
      await t.db.query(
        `SELECT 1 FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
                        WHERE a.owner_uuid IN ($1, $2)`,
        [client.uuid, operator.uuid],
      ),
    ).toEqual([]);
  });

  it('should give the prices and the launch period from the server', async () => {
    const client = await registerAccount(t);
    const res = await t.http().get(WALLET_ROUTES.settings).set(bearer(client.token!)).expect(200);
    expect(res.body.settings).toMatchObject({
      monthlyPerServerMicro: '10000000',
      hourlyPerServerMicro: '100000',
      operatorRewardFrozenDays: 60,
      launchPeriodActive: false,
      withdrawalsEnabled: false,
    });
  });
});
