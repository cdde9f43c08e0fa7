import { MICRO_PER_SSL } from '@scn/proto';
import type { EconomicsRepository, EconomyFacts } from './economics.repository';
import { EconomicsService, LIVE_ECONOMY_TTL_MS } from './economics.service';

const facts = (overrides: Partial<EconomyFacts> = {}): EconomyFacts => ({
  poolMicro: 1_200n * MICRO_PER_SSL,
  genesisAt: new Date('2026-01-15T00:00:00Z'),
  lastMonthPaidMicro: 0n,
  totalPaidMicro: 0n,
  totalInflowMicro: 0n,
  servers: 3,
  reportingServers: 3,
  hiddenServers: 0,
  reportingReliabilitySum: 296,
  totalStakeMicro: 0n,
  stakers: 0,
  ...overrides,
});

function service(now: { value: Date }, read: jest.Mock) {
  return new EconomicsService({ facts: read } as unknown as EconomicsRepository, {
    now: () => now.value,
  });
}

describe('EconomicsService.live', () => {
  it('should give the budget by the months left in the cycle and the average reliability', async () => {
    const now = { value: new Date('2026-03-10T12:00:00Z') };
    const read = jest.fn().mockResolvedValue(facts());
    const live = await service(now, read).live();
    // Genesis in January: March is month 3 of the cycle, 10 months left (1,200 / 10).
    expect(live).toMatchObject({
      month: '2026-03',
      cycleMonth: 3,
      monthBudgetMicro: (120n * MICRO_PER_SSL).toString(),
      networkReliability: 98.7,
      poolMicro: (1_200n * MICRO_PER_SSL).toString(),
    });
    // What the pool paid is read for the last ended month.
    expect(read).toHaveBeenCalledWith(now.value, '2026-02');
  });

  it('should place a month before genesis in the cycle as the rewards engine does', async () => {
    // December 2025 is month -1 since a January genesis: month 12 of a cycle, 1 month left.
    const now = { value: new Date('2025-12-20T00:00:00Z') };
    const live = await service(now, jest.fn().mockResolvedValue(facts())).live();
    expect(live).toMatchObject({ month: '2025-12', cycleMonth: 12 });
    expect(live.monthBudgetMicro).toBe((1_200n * MICRO_PER_SSL).toString());
    // January across a year: the read asks for December's payout.
    const read = jest.fn().mockResolvedValue(facts());
    await service({ value: new Date('2027-01-02T00:00:00Z') }, read).live();
    expect(read).toHaveBeenCalledWith(new Date('2027-01-02T00:00:00Z'), '2026-12');
  });

  it('should start a new cycle after 12 months and say null when no server reports', async () => {
    const now = { value: new Date('2027-01-02T00:00:00Z') };
    const read = jest.fn().mockResolvedValue(facts({ reportingServers: 0 }));
    const live = await service(now, read).live();
    expect(live.cycleMonth).toBe(1);
    expect(live.monthBudgetMicro).toBe((100n * MICRO_PER_SSL).toString());
    expect(live.networkReliability).toBeNull();
  });

  it('should read once per TTL, share one read between callers, and retry after a failure', async () => {
    const now = { value: new Date('2026-03-10T12:00:00Z') };
    const read = jest.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValue(facts());
    const economics = service(now, read);
    await expect(economics.live()).rejects.toThrow('down');
    const [a, b] = await Promise.all([economics.live(), economics.live()]);
    expect(a).toBe(b);
    expect(read).toHaveBeenCalledTimes(2);
    now.value = new Date(now.value.getTime() + LIVE_ECONOMY_TTL_MS - 1);
    await economics.live();
    expect(read).toHaveBeenCalledTimes(2);
    now.value = new Date(now.value.getTime() + 2);
    await economics.live();
    expect(read).toHaveBeenCalledTimes(3);
  });
});
