import {
  AUTH_MESSAGES,
  type MarketServersResponse,
  PROMOTION_MESSAGES,
  PROMOTION_ROUTES,
  type PromoteResponse,
  promotionStatusSchema,
  promoteResponseSchema,
  WALLET_ROUTES,
  type WalletData,
} from '@scn/proto';
import { registerAccount } from '../support/accounts';
import { depositThroughChain, type FundingChain } from '../support/chain-deposits';
import { type Account, nodeWallet, postAs, useFundedApp } from '../support/funded-app';
import { insertServers } from '../support/market-fixtures';
import type { TestApp } from '../support/test-app';

/**
 * Promotions on the built server: promotions paid from the node wallet (funded by real
 * deposits), owner-only, the price the server's, the cap, and the market's order and expiry on
 * the server clock.
 */
const DAY = 86_400_000;
let now = new Date('2026-06-01T12:00:00Z');
let t: TestApp;
let funding: FundingChain;
useFundedApp({ now: () => now, checkLedgerAfterEach: true }, (app, chain) => {
  t = app;
  funding = chain;
});

const MICRO = 1_000_000n;

async function operatorWithServer(
  name: string,
  funded = 0,
): Promise<{ who: Account; serverId: string }> {
  const who = await registerAccount(t, { userType: 'node' });
  if (funded > 0) await depositThroughChain(t, funding, who, funded);
  const [serverId] = await insertServers(t.db, [{ ownerUuid: who.uuid, name }], now);
  return { who, serverId: serverId! };
}

const promote = (who: Account, serverId: string, body: unknown, key?: string) =>
  postAs(t, who, PROMOTION_ROUTES.promote(serverId), body, key);

async function nodeBalance(who: Account): Promise<bigint> {
  return BigInt((await nodeWallet(t, who)).balanceMicro);
}

/** The market's first page as a visitor sees it: [name, isPromoted] of the given servers. */
async function market(names: readonly string[]): Promise<Array<[string, boolean]>> {
  const res = await t.http().get('/data/servers?limit=100').expect(200);
  return (res.body as MarketServersResponse).servers
    .filter((s) => names.includes(s.name))
    .map((s) => [s.name, s.isPromoted]);
}

describe('promotion calls: who may call them', () => {
  it('should answer only the owner; another operator gets 404 as for no server, a client 403, and no session 401', async () => {
    const { who: owner, serverId } = await operatorWithServer('Owned', 1000);
    const other = await registerAccount(t, { userType: 'node' });
    await depositThroughChain(t, funding, other, 1000);
    const client = await registerAccount(t);
    await t.http().get(PROMOTION_ROUTES.promotion(serverId)).expect(401);
    await t
      .http()
      .post(PROMOTION_ROUTES.promote(serverId))
      .send({ days: 10, cost: 1000 })
      .expect(401);
    for (const [who, status, message] of [
      [other, 404, 'Server not found'],
      // Promotions are node accounts' (docs/api.md, "Account types"): refused before the id is read.
      [client, 403, AUTH_MESSAGES.nodesOnly],
    ] as const) {
      const read = await t
        .http()
        .get(PROMOTION_ROUTES.promotion(serverId))
        .set('Cookie', who.cookie);
      const write = await promote(who, serverId, { days: 10, cost: 1000 });
      expect([read.status, read.body.message, write.status, write.body.message]).toEqual([
        status,
        message,
        status,
        message,
      ]);
    }
    for (const id of ['not-a-uuid', '8d8f1c8e-9a51-4c61-9f5e-2b7c1f4c1a11']) {
      const res = await promote(other, id, { days: 10, cost: 1000 });
      expect([id, res.status]).toEqual([id, 404]);
    }
    expect(await nodeBalance(other)).toBe(1000n * MICRO);
    // The owner's view: not promoted, every plan within the cap, the balance.
    const res = await t
      .http()
      .get(PROMOTION_ROUTES.promotion(serverId.toUpperCase()))
      .set('Cookie', owner.cookie)
      .expect(200);
    const status = promotionStatusSchema.parse(res.body);
    expect(status).toMatchObject({ active: false, expiresAt: null, amountPaid: 0, balance: 1000 });
    expect(status.plans.map((p) => [p.days, p.cost, p.allowed])).toEqual([
      [10, 1000, true],
      [20, 2000, true],
      [30, 3000, true],
    ]);
  });

  it('should refuse bad input (400), a cost that is not the price (409), a short balance (402): nothing moved', async () => {
    const { who, serverId } = await operatorWithServer('Refused', 1500);
    const cases: Array<[unknown, string]> = [
      [{}, PROMOTION_MESSAGES.selectPlan],
      [{ days: 15, cost: 1500 }, PROMOTION_MESSAGES.daysInvalid],
      [{ days: 10 }, PROMOTION_MESSAGES.costInvalid],
      [{ days: 10, cost: 1000, serverId: 'x' }, 'Unknown field: serverId'],
    ];
    for (const [body, message] of cases) {
      const res = await promote(who, serverId, body);
      expect([body, res.status, res.body.message]).toEqual([body, 400, message]);
    }
    // The client says 1 SSL for the Premium plan: refused, the server's price is 3000.
    const cheap = await promote(who, serverId, { days: 30, cost: 1 });
    expect([cheap.status, cheap.body.error]).toEqual([409, 'cost_mismatch']);
    const poor = await promote(who, serverId, { days: 20, cost: 2000 });
    expect(poor.status).toBe(402);
    expect(poor.body).toMatchObject({
      success: false,
      error: 'insufficient_balance',
      message: PROMOTION_MESSAGES.insufficientBalance,
      balance: '1500.00',
      required: '2000.00',
    });
    expect(await nodeBalance(who)).toBe(1500n * MICRO);
  });
});

describe('promoting a server', () => {
  it('should pay from the node wallet once per key, list it first, then the higher and newer, and end it on time', async () => {
    const a = await operatorWithServer('Promo Alpha', 4000);
    const b = await operatorWithServer('Promo Beta', 3000);
    const c = await operatorWithServer('Promo Gamma');
    const names = ['Promo Alpha', 'Promo Beta', 'Promo Gamma'];

    const first = await promote(a.who, a.serverId, { days: 10, cost: 1000 }, 'promo-a-1');
    expect(first.status).toBe(200);
    const paid = promoteResponseSchema.parse(first.body) as PromoteResponse;
    expect(paid).toMatchObject({
      active: true,
      plan: 'basic',
      burnedMicro: String(100n * MICRO),
      poolMicro: String(900n * MICRO),
      amountPaid: 1000,
      balance: 3000,
      expiresAt: new Date(now.getTime() + 10 * DAY).toISOString(),
    });
    // A retried click: the same answer, paid once.
    const again = await promote(a.who, a.serverId, { days: 10, cost: 1000 }, 'promo-a-1');
    expect(again.body.transactionId).toBe(paid.transactionId);
    expect(await nodeBalance(a.who)).toBe(3000n * MICRO);
    const wallet = await t
      .http()
      .get(WALLET_ROUTES.nodeWallet(a.who.uuid))
      .set('Cookie', a.who.cookie);
    expect((wallet.body.data as WalletData).transactions[0]).toMatchObject({
      type: 'promotion',
      amountMicro: String(-1000n * MICRO),
    });
    expect((await market(names))[0]).toEqual(['Promo Alpha', true]);

    // Equal promotions: the newer first.
    now = new Date(now.getTime() + 60_000);
    await promote(b.who, b.serverId, { days: 10, cost: 1000 }).expect(200);
    expect(await market(names)).toEqual([
      ['Promo Beta', true],
      ['Promo Alpha', true],
      ['Promo Gamma', false],
    ]);

    // Alpha upgrades (2000 more, from its current expiry): the higher promotion first.
    now = new Date(now.getTime() + 60_000);
    const upgrade = await promote(a.who, a.serverId, { days: 20, cost: 2000 }).expect(200);
    expect(upgrade.body.expiresAt).toBe(
      new Date(new Date(paid.expiresAt!).getTime() + 20 * DAY).toISOString(),
    );
    expect(await market(names)).toEqual([
      ['Promo Alpha', true],
      ['Promo Beta', true],
      ['Promo Gamma', false],
    ]);
    // The cap: 3000 paid, so only Basic is left, and Standard is refused.
    const status = promotionStatusSchema.parse(
      (
        await t
          .http()
          .get(PROMOTION_ROUTES.promotion(a.serverId))
          .set('Cookie', a.who.cookie)
          .expect(200)
      ).body,
    );
    expect(status.plans.map((p) => p.allowed)).toEqual([true, false, false]);
    const capped = await promote(a.who, a.serverId, { days: 20, cost: 2000 });
    expect([capped.status, capped.body.error]).toEqual([409, 'cap_exceeded']);
    expect(await nodeBalance(a.who)).toBe(1000n * MICRO);

    // Beta's 10 days run out on the server clock: the next page shows it as not promoted.
    now = new Date(now.getTime() + 10 * DAY);
    const after = await market(names);
    // (The two not promoted follow in the default order: by id, as nothing else tells them apart.)
    expect(after[0]).toEqual(['Promo Alpha', true]);
    expect(after.slice(1).sort()).toEqual([
      ['Promo Beta', false],
      ['Promo Gamma', false],
    ]);
    const ended = await t
      .http()
      .get(PROMOTION_ROUTES.promotion(b.serverId))
      .set('Cookie', b.who.cookie)
      .expect(200);
    expect(ended.body).toMatchObject({ active: false, amountPaid: 1000, balance: 2000 });
    // Gamma has no money: nothing changes for it.
    const broke = await promote(c.who, c.serverId, { days: 10, cost: 1000 });
    expect([broke.status, broke.body.error]).toEqual([402, 'insufficient_balance']);
  });

  it('should let concurrent promotions of a server pass neither the cap nor the balance', async () => {
    const { who, serverId } = await operatorWithServer('Promo Race', 5000);
    const answers = await Promise.all(
      [1, 2, 3].map(() => promote(who, serverId, { days: 20, cost: 2000 })),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([200, 200, 409]);
    expect(answers.find((res) => res.status === 409)?.body.error).toBe('cap_exceeded');
    expect(await nodeBalance(who)).toBe(1000n * MICRO);
  });
});
