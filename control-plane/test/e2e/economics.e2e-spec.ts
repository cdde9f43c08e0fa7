import { ECONOMICS_ROUTES, liveEconomySchema, REWARD_POOL_GENESIS_MICRO } from '@scn/proto';
import { startTestApp, type TestApp } from '../support/test-app';

let now = new Date('2026-11-24T12:00:00Z');
const clock = { now: () => now };
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { clock });
});
afterAll(() => t.close());

describe('GET /api/economics/live', () => {
  it('should show the pool minted at genesis, its budget for the month and no payouts yet', async () => {
    const response = await t.http().get(ECONOMICS_ROUTES.live).expect(200);
    expect(response.headers['cache-control']).toBe('public, max-age=30');
    const live = liveEconomySchema.parse(response.body);
    expect(live).toMatchObject({
      poolMicro: REWARD_POOL_GENESIS_MICRO.toString(),
      poolGenesisMicro: REWARD_POOL_GENESIS_MICRO.toString(),
      month: '2026-11',
      lastMonthPaidMicro: '0',
      totalPaidMicro: '0',
      servers: 0,
      networkReliability: null,
      totalStakeMicro: '0',
    });
    // The database was created just now (genesis this month in real time); the clock's month
    // sets the cycle's place, and the budget is the pool over the months left.
    const left = 13 - live.cycleMonth;
    expect(BigInt(live.monthBudgetMicro)).toBe(REWARD_POOL_GENESIS_MICRO / BigInt(left));
  });

  it('should answer the same figures within 30 s and fresh ones after', async () => {
    const first = (await t.http().get(ECONOMICS_ROUTES.live).expect(200)).body;
    now = new Date(now.getTime() + 10_000);
    expect((await t.http().get(ECONOMICS_ROUTES.live).expect(200)).body).toEqual(first);
    now = new Date(now.getTime() + 30_000);
    const later = (await t.http().get(ECONOMICS_ROUTES.live).expect(200)).body;
    expect(later.computedAt).toBe(now.toISOString());
  });
});
