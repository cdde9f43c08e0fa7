import {
  type Earnings,
  earningsResponseSchema,
  MICRO_PER_SSL,
  REWARDS_MESSAGES,
  REWARDS_ROUTES,
} from '@scn/proto';
import { RewardsJob } from '../../src/rewards/rewards.job';
import { registerAccount } from '../support/accounts';
import {
  depositThroughChain,
  type FundingChain,
  startFundingChain,
} from '../support/chain-deposits';
import { ledgerViolations } from '../support/ledger';
import { insertServers } from '../support/market-fixtures';
import { balanceOf, insertHistory, setAutoStake } from '../support/reward-fixtures';
import { buy } from '../support/subscriptions';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Monthly rewards from outside, on the built server: an operator's node with a month of history
 * (fixture rows of the reliability history) sees its dry run while the month runs, then the job,
 * with the clock moved past the month's end, pays exactly the statement the endpoint then shows.
 *
 * The month is not chosen by the test: the subscription reward the client's purchase pays is
 * stamped by the database's clock, which the test cannot move, and the statement counts it in
 * the month of that stamp. So the test reads the stamp after the purchase and takes its month as
 * the period (and the app's clock, for the dry run, within it): started a second before a month
 * ends, it covers the next month instead of failing because the purchase landed after the
 * boundary. Only a stamp in a month's last millisecond would leave no instant after it within the
 * month for the dry run.
 */

const ssl = (value: number) => BigInt(value) * MICRO_PER_SSL;
const DAY = 86_400_000;
let now = new Date();
let t: TestApp;
let funding: FundingChain;

/** The calendar month of `at` (UTC): its name, bounds, days and the day of `at`. */
function monthOf(at: Date) {
  const monthStart = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const nextMonth = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  const period = monthStart.toISOString().slice(0, 7);
  return {
    period,
    nextMonth,
    days: Math.round((nextMonth.getTime() - monthStart.getTime()) / DAY),
    today: at.getUTCDate(),
    dayOf: (n: number) => `${period}-${String(n).padStart(2, '0')}`,
  };
}

beforeAll(async () => {
  funding = await startFundingChain({ now: () => now.getTime() });
  t = await startTestApp(
    { ...funding.env, LAUNCH_PERIOD_ENDS: '2026-06-30' },
    { clock: { now: () => now } },
  );
});
afterAll(async () => {
  await t.close();
  await funding.stop();
});

function earnings(who: { cookie: string }, uuid: string, month?: string) {
  return t.http().get(REWARDS_ROUTES.earnings(uuid, month)).set('Cookie', who.cookie);
}

function line(statement: Earnings['servers'][number], key: string) {
  return statement.lines.find((l) => l.key === key)!;
}

describe('GET /api/nodes/{uuid}/earnings and the monthly job', () => {
  it("should show the month so far as a dry run, then pay exactly the month's statement once", async () => {
    const operator = await registerAccount(t, { userType: 'node' });
    const [server] = await insertServers(t.db, [{ ownerUuid: operator.uuid, tier: 'tier2' }], now);
    await setAutoStake(t.db, operator.uuid, 20);
    // A client buys a month of the server: 10 SSL reach the operator as a subscription reward.
    const client = await registerAccount(t, { userType: 'client' });
    await depositThroughChain(t, funding, client, 10);
    await buy(t, client, [server!]).expect(200);
    // The period is the month the database stamped the reward in (see above).
    const [reward] = await t.db.query<{ created_at: Date }>(
      `SELECT tx.created_at FROM ledger_transactions tx
       JOIN ledger_entries e ON e.transaction_id = tx.id
       JOIN ledger_accounts a ON a.id = e.account_id
       WHERE tx.type = 'subscription_reward' AND a.kind = 'node_wallet' AND a.owner_uuid = $1`,
      [operator.uuid],
    );
    const { period, nextMonth, days, today, dayOf } = monthOf(reward!.created_at);
    // The app's clock for the dry run: now, or the month's last instant if it has just ended.
    now = new Date(Math.min(Date.now(), nextMonth.getTime() - 1));
    expect(now.getTime()).toBeGreaterThan(reward!.created_at.getTime());

    // Day 1 at 96% (slashed, not frozen), every other day so far at 100%.
    await insertHistory(t.db, {
      serverId: server!,
      ownerUuid: operator.uuid,
      tier: 'tier2',
      from: dayOf(1),
      to: dayOf(1),
      reliability: 96,
    });
    if (today > 1) {
      await insertHistory(t.db, {
        serverId: server!,
        ownerUuid: operator.uuid,
        tier: 'tier2',
        from: dayOf(2),
        to: dayOf(today),
      });
    }

    const dry = earningsResponseSchema.parse(
      (await earnings(operator, operator.uuid).expect(200)).body,
    ).earnings;
    expect(dry).toMatchObject({ period, kind: 'dry_run', note: REWARDS_MESSAGES.dryRun });
    expect(dry.servers).toHaveLength(1);
    const soFar = dry.servers[0]!;
    expect(soFar).toMatchObject({ serverId: server, status: 'dry_run', serverState: 'active' });
    expect(line(soFar, 'base').resultMicro).toBe(
      ((ssl(625) * BigInt(today)) / BigInt(days)).toString(),
    );
    expect(line(soFar, 'subscriptions')).toMatchObject({
      resultMicro: ssl(10).toString(),
      inputs: { clients: 1 },
    });
    expect(line(soFar, 'reliability').explanation).toMatch(/Time-weighted reliability/);
    expect(dry.pool.scaleNumeratorMicro).toBe(dry.pool.scaleDenominatorMicro);

    // Bad and others' requests.
    const other = await registerAccount(t, { userType: 'node' });
    await earnings(other, operator.uuid).expect(403);
    await t.http().get(REWARDS_ROUTES.earnings(operator.uuid)).expect(401);
    const bad = await earnings(operator, operator.uuid, '2026-13').expect(400);
    expect(bad.body.message).toBe(REWARDS_MESSAGES.periodFormat);
    const next = nextMonth.toISOString().slice(0, 7);
    const future = await earnings(operator, operator.uuid, next).expect(400);
    expect(future.body.message).toBe(REWARDS_MESSAGES.periodInFuture);

    // The month ends; the history is complete; an hour later the job pays it.
    if (today < days) {
      await insertHistory(t.db, {
        serverId: server!,
        ownerUuid: operator.uuid,
        tier: 'tier2',
        from: dayOf(today + 1),
        to: dayOf(days),
      });
    }
    const walletBefore = await balanceOf(t.db, 'node_wallet', operator.uuid);
    now = new Date(nextMonth.getTime() + 2 * 3_600_000);
    // The node kept reporting (no staleness): it is not hidden when the month is paid.
    await t.db.query(
      `UPDATE servers SET last_report_at = $2, reliability_at_report = 100,
                          below_threshold_since = NULL WHERE id = $1`,
      [server, now],
    );
    const job = t.app.get(RewardsJob);
    const tick = await job.runOnce();
    expect(tick?.runs.find((run) => run.period === period)).toMatchObject({
      computed: true,
      finished: true,
    });
    expect((await job.runOnce())?.runs.find((run) => run.period === period)).toMatchObject({
      computed: false,
      paid: 0,
    });

    const stored = earningsResponseSchema.parse(
      (await earnings(operator, operator.uuid, period).expect(200)).body,
    ).earnings;
    expect(stored).toMatchObject({ period, kind: 'statement', note: null });
    const statement = stored.servers[0]!;
    // base x (2 x Σ r·s - 100 x observed) / (100 x period): one day at 96% costs 8% of a day.
    const earned = (ssl(625) * BigInt(100 * days - 8)) / BigInt(100 * days);
    expect(line(statement, 'reliability').resultMicro).toBe(earned.toString());
    expect(line(statement, 'subscriptions').resultMicro).toBe(ssl(10).toString());
    expect(statement.incomeMicro).toBe((earned + ssl(10)).toString());
    const autoStaked = (earned * 20n) / 100n;
    expect(statement).toMatchObject({
      status: 'paid',
      walletMicro: (earned - autoStaked).toString(),
      autoStakedMicro: autoStaked.toString(),
      escrowedMicro: '0',
    });

    // The ledger holds exactly the statement: one movement, out of the pool.
    const entries = await t.db.query<{
      kind: string;
      amount_micro: string;
      frozen_until: Date | null;
    }>(
      `SELECT a.kind, e.amount_micro::text, e.frozen_until FROM ledger_entries e
       JOIN ledger_transactions tx ON tx.id = e.transaction_id
       JOIN ledger_accounts a ON a.id = e.account_id
       WHERE tx.external_ref = $1 ORDER BY a.kind`,
      [`reward:${server}:${period}`],
    );
    expect(entries).toEqual([
      {
        kind: 'node_wallet',
        amount_micro: statement.walletMicro,
        frozen_until: new Date(now.getTime() + 60 * DAY),
      },
      { kind: 'reward_pool', amount_micro: (-earned).toString(), frozen_until: null },
      // The automatic stake is locked 30 days from the payout, like any stake.
      {
        kind: 'stake',
        amount_micro: statement.autoStakedMicro,
        frozen_until: new Date(now.getTime() + 30 * DAY),
      },
    ]);
    expect((await balanceOf(t.db, 'node_wallet', operator.uuid)) - walletBefore).toBe(
      BigInt(statement.walletMicro),
    );
    expect(await balanceOf(t.db, 'stake', operator.uuid)).toBe(autoStaked);
    expect(statement.ledgerTransactionId).not.toBeNull();

    // The node wallet lists it.
    const wallet = await t
      .http()
      .get(`/wallet/node/${operator.uuid}`)
      .set('Cookie', operator.cookie)
      .expect(200);
    const types = (wallet.body.data.transactions as Array<{ type: string }>).map((x) => x.type);
    expect(types).toContain('monthly_reward');
    expect(await ledgerViolations(t.db.url)).toEqual([]);
  });
});
