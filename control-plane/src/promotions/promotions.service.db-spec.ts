import { randomUUID } from 'node:crypto';
import { MICRO_PER_SSL } from '@scn/proto';
import { depositSsl, ledgerViolations } from '../../test/support/ledger';
import { insertAccount, insertServers } from '../../test/support/market-fixtures';
import { OPERATOR_EMAIL, useMarketDatabase } from '../../test/support/market-model';
import type { AppConfig } from '../config/app-config';
import { TransactionRunner } from '../database/transaction-runner';
import type { RealtimeGateway } from '../realtime/realtime.gateway';
import { IdempotencyRepository } from '../wallet/idempotency.repository';
import { IdempotencyService } from '../wallet/idempotency.service';
import { LedgerService } from '../wallet/ledger.service';
import { WalletRepository } from '../wallet/wallet.repository';
import { WalletService } from '../wallet/wallet.service';
import { PromotionsException } from './promotions.exception';
import { PromotionsRepository } from './promotions.repository';
import { PromotionsService } from './promotions.service';

const START = new Date('2026-03-01T12:00:00.000Z');
const DAY = 86_400_000;
const ssl = (n: number) => BigInt(n) * MICRO_PER_SSL;
const market = useMarketDatabase(START);

let promotions: PromotionsService;
let runner: TransactionRunner;
let ledger: LedgerService;
/** The realtime events the service sent (the gateway itself is covered by the e2e suites). */
const events: string[] = [];
beforeAll(() => {
  const ds = market.dataSource;
  runner = new TransactionRunner(ds);
  ledger = new LedgerService(new WalletRepository(ds));
  const wallets = new WalletService(
    new WalletRepository(ds),
    ledger,
    market.clock,
    {} as AppConfig,
  );
  const realtime = {
    serverListUpdated: (reason: string) => events.push(reason),
  } as unknown as RealtimeGateway;
  promotions = new PromotionsService(
    runner,
    new PromotionsRepository(ds),
    ledger,
    wallets,
    new IdempotencyService(runner, new IdempotencyRepository(ds)),
    realtime,
    market.clock,
  );
});
beforeEach(() => {
  market.clock.at = START;
  events.length = 0;
});
afterEach(async () => {
  expect(await ledgerViolations(market.db.url)).toEqual([]);
});

async function operator(funded: number, servers = 1): Promise<{ owner: string; ids: string[] }> {
  const owner = await insertAccount(market.db);
  if (funded > 0) await depositSsl(market.db.url, owner, funded, 'node_wallet');
  const ids = await insertServers(
    market.db,
    Array.from({ length: servers }, () => ({ ownerUuid: owner, id: randomUUID() })),
    START,
  );
  return { owner, ids };
}

/** An account's balance as the sum of its entries (system accounts keep no balance column). */
async function balance(kind: string, owner = '00000000-0000-0000-0000-000000000000') {
  const [row] = await market.db.query<{ b: string }>(
    `SELECT COALESCE(sum(e.amount_micro), 0)::text AS b FROM ledger_entries e
     JOIN ledger_accounts a ON a.id = e.account_id WHERE a.kind = $1 AND a.owner_uuid = $2`,
    [kind, owner],
  );
  return BigInt(row!.b);
}

async function refusal(work: Promise<unknown>): Promise<PromotionsException> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PromotionsException);
  return error as PromotionsException;
}

describe('PromotionsService.promote', () => {
  it('should debit the plan price once: 10% burned, 90% to the pool, the listing promoted', async () => {
    const { owner, ids } = await operator(2500);
    const [burn, pool] = [await balance('burn'), await balance('reward_pool')];
    const answer = await promotions.promote(owner, ids[0]!, { days: 20, cost: 2000 }, 'k-1');
    expect(answer).toMatchObject({
      active: true,
      plan: 'standard',
      costMicro: ssl(2000).toString(),
      burnedMicro: ssl(200).toString(),
      poolMicro: ssl(1800).toString(),
      amountPaid: 2000,
      balance: 500,
      expiresAt: new Date(START.getTime() + 20 * DAY).toISOString(),
    });
    expect((await balance('burn')) - burn).toBe(ssl(200));
    expect((await balance('reward_pool')) - pool).toBe(ssl(1800));
    expect(await balance('node_wallet', owner)).toBe(ssl(500));
    const [entries] = await market.db.query<{ n: number; sum: string }>(
      `SELECT count(*)::int AS n, sum(amount_micro)::text AS sum FROM ledger_entries
       WHERE transaction_id = $1`,
      [answer.transactionId],
    );
    expect(entries).toEqual({ n: 3, sum: '0' });
    const [listing] = await market.db.query(
      `SELECT promoted, promoted_until, promotion_micro::text, sort_group FROM market_listings WHERE server_id = $1`,
      [ids[0]],
    );
    expect(listing).toMatchObject({
      promoted: true,
      promotion_micro: ssl(2000).toString(),
      sort_group: 1,
    });
    expect(events).toEqual(['promotion']);

    // The same key again: the first answer, nothing moved twice, no second event.
    const replay = await promotions.promote(owner, ids[0]!, { days: 20, cost: 2000 }, 'k-1');
    expect(replay.transactionId).toBe(answer.transactionId);
    expect(await balance('node_wallet', owner)).toBe(ssl(500));
    expect(events).toEqual(['promotion']);
  });

  it('should extend a running promotion from its expiry and add up what it cost', async () => {
    const { owner, ids } = await operator(4000);
    await promotions.promote(owner, ids[0]!, { days: 10, cost: 1000 }, undefined);
    market.clock.at = new Date(START.getTime() + 4 * DAY);
    const upgrade = await promotions.promote(owner, ids[0]!, { days: 30, cost: 3000 }, undefined);
    expect(upgrade.expiresAt).toBe(new Date(START.getTime() + 40 * DAY).toISOString());
    expect(upgrade.amountPaid).toBe(4000);
    expect(upgrade.plans.every((plan) => !plan.allowed)).toBe(true);
    const [listing] = await market.db.query(
      `SELECT promotion_micro::text, sort_promotion_micro::text, promoted_at FROM market_listings WHERE server_id = $1`,
      [ids[0]],
    );
    expect(listing).toMatchObject({
      promotion_micro: ssl(4000).toString(),
      sort_promotion_micro: ssl(4000).toString(),
      promoted_at: market.clock.at,
    });
  });

  it('should refuse a plan past the 4000 SSL cap, a wrong cost, a short balance: nothing written', async () => {
    const { owner, ids } = await operator(3500);
    const wrongCost = await refusal(
      promotions.promote(owner, ids[0]!, { days: 30, cost: 1 }, undefined),
    );
    expect(wrongCost.code).toBe('cost_mismatch');
    expect(wrongCost.kind).toBe('conflict');
    await promotions.promote(owner, ids[0]!, { days: 30, cost: 3000 }, undefined);
    const capped = await refusal(
      promotions.promote(owner, ids[0]!, { days: 20, cost: 2000 }, undefined),
    );
    expect(capped.code).toBe('cap_exceeded');
    expect(capped.message).toBe(
      'This plan would take the server past the 4000 SSL promotion cap (3000.00 SSL paid so far)',
    );
    // 500 SSL left: Basic is within the cap but not within the balance.
    const poor = await refusal(
      promotions.promote(owner, ids[0]!, { days: 10, cost: 1000 }, 'k-poor'),
    );
    expect(poor.code).toBe('insufficient_balance');
    expect(poor.kind).toBe('payment_required');
    expect(poor.message).toBe('Not enough SSL tokens. Please add more to your balance.');
    expect(poor.details).toMatchObject({
      error: 'insufficient_balance',
      balance: '500.00',
      required: '1000.00',
    });
    expect(await balance('node_wallet', owner)).toBe(ssl(500));
    const [count] = await market.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM promotion_purchases WHERE server_id = $1`,
      [ids[0]],
    );
    expect(count!.n).toBe(1);
    // The refused key was rolled back with it: after a deposit the same key goes through.
    await depositSsl(market.db.url, owner, 500, 'node_wallet');
    await promotions.promote(owner, ids[0]!, { days: 10, cost: 1000 }, 'k-poor');
    expect(await balance('node_wallet', owner)).toBe(0n);
  });

  it('should not spend frozen rewards (they are not the operator’s yet)', async () => {
    const { owner, ids } = await operator(500);
    // A subscription reward of 1000 SSL, frozen 60 days (docs/product/constants.md#market-prices-and-limits): the balance is 1500.
    await runner.run((tx) =>
      ledger.lockAndPost(tx, {
        type: 'subscription_reward',
        describedAs: { code: 'subscription_reward' as const, values: {} },
        postings: [
          { account: { system: 'external' }, amountMicro: -ssl(1000) },
          {
            account: { wallet: 'node_wallet', ownerUuid: owner },
            amountMicro: ssl(1000),
            frozenUntil: new Date(START.getTime() + 60 * DAY),
          },
        ],
      }),
    );
    expect((await promotions.status(owner, ids[0]!)).balance).toBe(500);
    const refused = await refusal(
      promotions.promote(owner, ids[0]!, { days: 10, cost: 1000 }, undefined),
    );
    expect(refused.details).toMatchObject({ balance: '500.00', required: '1000.00' });
    expect(await balance('node_wallet', owner)).toBe(ssl(1500));
  });

  it('should refuse to promote a premium (platform) server: it is listed first anyway', async () => {
    const platform = await insertAccount(market.db, { email: OPERATOR_EMAIL });
    await depositSsl(market.db.url, platform, 1000, 'node_wallet');
    const [id] = await insertServers(market.db, [{ ownerUuid: platform }], START);
    const refused = await refusal(
      promotions.promote(platform, id!, { days: 10, cost: 1000 }, undefined),
    );
    expect(refused.code).toBe('premium_server');
    expect(await balance('node_wallet', platform)).toBe(ssl(1000));
  });

  it("should answer another operator's server as not found, and a server that does not exist", async () => {
    const { ids } = await operator(0);
    const other = await operator(5000);
    for (const id of [ids[0]!, randomUUID()]) {
      expect((await refusal(promotions.status(other.owner, id))).code).toBe('server_not_found');
      expect(
        (await refusal(promotions.promote(other.owner, id, { days: 10, cost: 1000 }, undefined)))
          .code,
      ).toBe('server_not_found');
    }
    expect(await balance('node_wallet', other.owner)).toBe(ssl(5000));
  });

  it('should let concurrent promotions of one server pass the cap never, and never overspend', async () => {
    const rich = await operator(20_000);
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () =>
        promotions.promote(rich.owner, rich.ids[0]!, { days: 20, cost: 2000 }, undefined),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    for (const r of results) {
      if (r.status === 'rejected')
        expect((r.reason as PromotionsException).code).toBe('cap_exceeded');
    }
    const [paid] = await market.db.query<{ p: string }>(
      `SELECT amount_paid_micro::text AS p FROM server_promotions WHERE server_id = $1`,
      [rich.ids[0]],
    );
    expect(paid!.p).toBe(ssl(4000).toString());
    expect(await balance('node_wallet', rich.owner)).toBe(ssl(16_000));

    // One balance, two servers: of two concurrent 2000 SSL promotions only one is paid.
    const poor = await operator(3000, 2);
    const both = await Promise.allSettled(
      poor.ids.map((id) => promotions.promote(poor.owner, id, { days: 20, cost: 2000 }, undefined)),
    );
    expect(both.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await balance('node_wallet', poor.owner)).toBe(ssl(1000));
  });
});

describe('promotions in the market (spec 01 §4, §9)', () => {
  it('should list higher promotions first, then newer ones, and drop one the moment it expires', async () => {
    const a = await operator(10_000);
    const b = await operator(10_000);
    const c = await operator(10_000);
    const firstIds = async () =>
      (await market.service.servers({ page: 1, limit: 100 }, null)).value.servers
        .filter((s) => [a.ids[0], b.ids[0], c.ids[0]].includes(s.id))
        .map((s) => [s.id, s.isPromoted]);
    await promotions.promote(a.owner, a.ids[0]!, { days: 10, cost: 1000 }, undefined);
    market.clock.at = new Date(START.getTime() + 60_000);
    await promotions.promote(b.owner, b.ids[0]!, { days: 10, cost: 1000 }, undefined);
    // Equal promotions: the newer first; the server not promoted last.
    expect(await firstIds()).toEqual([
      [b.ids[0], true],
      [a.ids[0], true],
      [c.ids[0], false],
    ]);
    market.clock.at = new Date(START.getTime() + 120_000);
    await promotions.promote(a.owner, a.ids[0]!, { days: 10, cost: 1000 }, undefined);
    await promotions.promote(c.owner, c.ids[0]!, { days: 30, cost: 3000 }, undefined);
    // c paid 3000, a 2000 (an upgrade), b 1000.
    expect(await firstIds()).toEqual([
      [c.ids[0], true],
      [a.ids[0], true],
      [b.ids[0], true],
    ]);
    // b's 10 days end: the page cache (1 s) must not show it promoted, no sweep having run.
    market.clock.at = new Date(START.getTime() + 60_000 + 10 * DAY);
    expect(await firstIds()).toEqual([
      [c.ids[0], true],
      [a.ids[0], true],
      [b.ids[0], false],
    ]);
    const status = await promotions.status(b.owner, b.ids[0]!);
    expect(status).toMatchObject({ active: false, amountPaid: 1000 });
    // A new promotion after the end starts from now and from its own price.
    const again = await promotions.promote(b.owner, b.ids[0]!, { days: 10, cost: 1000 }, undefined);
    expect(again.expiresAt).toBe(new Date(market.clock.at.getTime() + 10 * DAY).toISOString());
    const [listing] = await market.db.query(
      `SELECT promotion_micro::text FROM market_listings WHERE server_id = $1`,
      [b.ids[0]],
    );
    expect(listing).toEqual({ promotion_micro: ssl(1000).toString() });
  });
});
