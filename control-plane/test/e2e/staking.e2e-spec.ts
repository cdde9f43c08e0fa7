import { STAKING_MESSAGES, STAKING_ROUTES, type StakingData } from '@scn/proto';
import { registerAccount } from '../support/accounts';
import { depositThroughChain, type FundingChain } from '../support/chain-deposits';
import { type Account, nodeWallet, postAs, useFundedApp } from '../support/funded-app';
import type { TestApp } from '../support/test-app';

/** The staking calls on the built server, funded through real deposits. */
const DAY = 86_400_000;
let now = new Date('2026-03-01T12:00:00Z');
let t: TestApp;
let funding: FundingChain;
useFundedApp({ now: () => now, checkLedgerAfterEach: true }, (app, chain) => {
  t = app;
  funding = chain;
});

const MICRO = 1_000_000n;

async function staking(who: Account): Promise<StakingData> {
  const res = await t.http().get(STAKING_ROUTES.staking(who.uuid)).set('Cookie', who.cookie);
  expect(res.status).toBe(200);
  return res.body.data as StakingData;
}

const post = (who: Account, path: string, body: unknown, key?: string) =>
  postAs(t, who, path, body, key);

describe('staking calls: who may call them', () => {
  it('should refuse another account’s uuid (403), no session (401) and a client account (403)', async () => {
    const operator = await registerAccount(t, { userType: 'node' });
    const other = await registerAccount(t, { userType: 'node' });
    const client = await registerAccount(t);
    await t.http().get(STAKING_ROUTES.staking(operator.uuid)).expect(401);
    for (const path of [
      STAKING_ROUTES.staking(operator.uuid),
      STAKING_ROUTES.stake(operator.uuid),
      STAKING_ROUTES.unstake(operator.uuid),
      STAKING_ROUTES.autoStake(operator.uuid),
    ]) {
      const method = path.endsWith('/staking') ? 'get' : path.endsWith('/auto') ? 'put' : 'post';
      const res = await t.http()[method](path).set('Cookie', other.cookie).send({ amount: 1 });
      expect([path, res.status]).toEqual([path, 403]);
    }
    const res = await t
      .http()
      .get(STAKING_ROUTES.staking(client.uuid))
      .set('Cookie', client.cookie);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(STAKING_MESSAGES.nodeAccountsOnly);
    // The owner's path in any case is the owner's.
    await t
      .http()
      .get(STAKING_ROUTES.staking(operator.uuid.toUpperCase()))
      .set('Cookie', operator.cookie)
      .expect(200);
  });

  it('should answer bad input with 400 and its message, moving nothing', async () => {
    const operator = await registerAccount(t, { userType: 'node' });
    const cases: Array<[string, unknown, string]> = [
      [STAKING_ROUTES.stake(operator.uuid), {}, STAKING_MESSAGES.amountRequired],
      [STAKING_ROUTES.stake(operator.uuid), { amount: '-1' }, STAKING_MESSAGES.amountInvalid],
      [STAKING_ROUTES.stake(operator.uuid), { amount: 0 }, STAKING_MESSAGES.amountInvalid],
      [
        STAKING_ROUTES.stake(operator.uuid),
        { amount: '1.0000001' },
        STAKING_MESSAGES.amountInvalid,
      ],
      [
        STAKING_ROUTES.stake(operator.uuid),
        { amount: 1, amountMicro: '1' },
        STAKING_MESSAGES.amountBoth,
      ],
      [
        STAKING_ROUTES.unstake(operator.uuid),
        { amountMicro: '1.5' },
        STAKING_MESSAGES.amountMicroInvalid,
      ],
      [STAKING_ROUTES.unstake(operator.uuid), { amount: 1, to: 'x' }, 'Unknown field: to'],
      [STAKING_ROUTES.stake(operator.uuid), [], 'Request body must be a JSON object'],
    ];
    for (const [path, body, message] of cases) {
      const res = await post(operator, path, body);
      expect([body, res.status, res.body.message]).toEqual([body, 400, message]);
    }
    for (const percent of [101, -1, 2.5, '50', null]) {
      const res = await t
        .http()
        .put(STAKING_ROUTES.autoStake(operator.uuid))
        .set('Cookie', operator.cookie)
        .send({ percent });
      expect([percent, res.status, res.body.message]).toEqual([
        percent,
        400,
        STAKING_MESSAGES.percentInvalid,
      ]);
    }
    const badKey = await post(
      operator,
      STAKING_ROUTES.stake(operator.uuid),
      { amount: 1 },
      'no spaces',
    );
    expect(badKey.status).toBe(400);
    expect((await staking(operator)).stakeMicro).toBe('0');
  });
});

describe('staking calls: moving money', () => {
  it('should stake from the available balance, refuse beyond it (402) and replay a key once', async () => {
    const operator = await registerAccount(t, { userType: 'node' });
    await depositThroughChain(t, funding, operator, 20);
    const first = await post(
      operator,
      STAKING_ROUTES.stake(operator.uuid),
      { amount: '12.5' },
      'stake-1',
    );
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      success: true,
      message: 'Staked 12.50 SSL',
      amountMicro: String(12_500_000n),
      stakeMicro: String(12_500_000n),
      nodeWalletMicro: String(7_500_000n),
    });
    const replay = await post(
      operator,
      STAKING_ROUTES.stake(operator.uuid),
      { amount: '12.5' },
      'stake-1',
    );
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    const reused = await post(
      operator,
      STAKING_ROUTES.stake(operator.uuid),
      { amount: 1 },
      'stake-1',
    );
    expect(reused.status).toBe(422);

    const short = await post(operator, STAKING_ROUTES.stake(operator.uuid), {
      amountMicro: '7500001',
    });
    expect(short.status).toBe(402);
    expect(short.body).toMatchObject({
      message: STAKING_MESSAGES.availableTooLow(7_500_001n, 7_500_000n),
      availableMicro: '7500000',
      requiredMicro: '7500001',
    });
    const wallet = await nodeWallet(t, operator);
    expect(wallet.balanceMicro).toBe('7500000');
    expect(wallet.transactions.map((x) => [x.type, x.amountMicro])).toEqual([
      ['stake', '-12500000'],
      ['deposit', String(20n * MICRO)],
    ]);
    expect(await staking(operator)).toMatchObject({
      stakeMicro: '12500000',
      unlockedMicro: '0',
      stakeableMicro: '7500000',
      locks: [
        { amountMicro: '12500000', unlocksAt: new Date(now.getTime() + 30 * DAY).toISOString() },
      ],
      // 12.5 x 12% / 12 = 0.125 SSL a month.
      monthlyIncomeMicro: '125000',
    });
  });

  it('should refuse an unstake while the stake is locked, with the rule, and allow it once the clock passed the lock', async () => {
    const start = now;
    const operator = await registerAccount(t, { userType: 'node' });
    await depositThroughChain(t, funding, operator, 10);
    await post(operator, STAKING_ROUTES.stake(operator.uuid), { amount: 6 }).expect(200);
    const locked = await post(operator, STAKING_ROUTES.unstake(operator.uuid), { amount: 6 });
    expect(locked.status).toBe(409);
    expect(locked.body.message).toBe(
      'Only 0.00 SSL of your stake is unlocked; you asked for 6.00 SSL. Each stake is locked for 30 days. The next 6.00 SSL unlocks on 31 March 2026.',
    );
    expect(locked.body).toMatchObject({
      nextUnlockAt: new Date(start.getTime() + 30 * DAY).toISOString(),
    });
    try {
      now = new Date(start.getTime() + 30 * DAY + 1000);
      const done = await post(
        operator,
        STAKING_ROUTES.unstake(operator.uuid),
        { amount: 6 },
        'un-1',
      );
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({ stakeMicro: '0', nodeWalletMicro: String(10n * MICRO) });
      // The same key again moves nothing more.
      const again = await post(
        operator,
        STAKING_ROUTES.unstake(operator.uuid),
        { amount: 6 },
        'un-1',
      );
      expect(again.body).toEqual(done.body);
      expect((await nodeWallet(t, operator)).balanceMicro).toBe(String(10n * MICRO));
    } finally {
      now = start;
    }
  });

  it('should save the automatic stake percent and show it', async () => {
    const operator = await registerAccount(t, { userType: 'node' });
    const res = await t
      .http()
      .put(STAKING_ROUTES.autoStake(operator.uuid))
      .set('Cookie', operator.cookie)
      .send({ percent: 50 })
      .expect(200);
    expect(res.body).toEqual({
      success: true,
      message: STAKING_MESSAGES.autoStakeSaved(50),
      autoStakePercent: 50,
    });
    expect((await staking(operator)).autoStakePercent).toBe(50);
  });
});
