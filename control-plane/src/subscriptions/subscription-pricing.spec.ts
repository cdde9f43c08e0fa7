import { launchPeriodActive } from '../common/launch-period';
import {
  hourlyPriceMicro,
  operatorRewards,
  pauseAllowance,
  periodMs,
  periodPriceMicro,
} from './subscription-pricing';

const SSL = 1_000_000n;
const regular = (ownerUuid = 'b') => ({ premium: false, ownerUuid, source: 'agent' as const });
const premium = { premium: true, ownerUuid: 'p', source: 'agent' as const };
const manual = (ownerUuid = 'm') => ({ premium: false, ownerUuid, source: 'manual' as const });

describe('subscription pricing', () => {
  it('should charge 10 SSL per server per month, premium servers included', () => {
    expect(periodPriceMicro('monthly', [regular(), regular(), premium], false)).toBe(30n * SSL);
  });

  it('should charge 10 SSL per server per 100-hour block when billed hourly', () => {
    expect(periodPriceMicro('hourly', [regular(), premium], false)).toBe(20n * SSL);
    expect(periodMs('hourly')).toBe(100 * 3_600_000);
    expect(periodMs('monthly')).toBe(30 * 86_400_000);
  });

  it('should charge nothing during the launch period, which includes its last day', () => {
    const ends = new Date('2025-12-31T23:59:59.999Z');
    expect(launchPeriodActive(new Date('2025-12-31T23:00:00Z'), ends)).toBe(true);
    expect(launchPeriodActive(new Date('2026-01-01T00:00:00Z'), ends)).toBe(false);
    expect(periodPriceMicro('monthly', [regular()], true)).toBe(0n);
  });

  it('should reward each operator 10 SSL per non-premium server, grouped by operator', () => {
    expect(operatorRewards([regular('b'), premium, regular('a'), regular('b')])).toEqual([
      { ownerUuid: 'a', amountMicro: 10n * SSL, serverCount: 1 },
      { ownerUuid: 'b', amountMicro: 20n * SSL, serverCount: 2 },
    ]);
  });

  it('should charge nothing for, and reward nobody for, servers added without the agent', () => {
    expect(periodPriceMicro('monthly', [manual(), regular()], false)).toBe(10n * SSL);
    expect(periodPriceMicro('hourly', [manual(), manual()], false)).toBe(0n);
    expect(hourlyPriceMicro([manual(), regular(), premium], false)).toBe(200_000n);
    expect(operatorRewards([manual('m'), regular('b'), manual('b')])).toEqual([
      { ownerUuid: 'b', amountMicro: 10n * SSL, serverCount: 1 },
    ]);
  });
});

describe('pauseAllowance', () => {
  const now = new Date('2026-05-10T12:00:00.000Z');
  const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);

  it('should leave hourly subscriptions two pauses in any 24 hours, of up to 8 hours', () => {
    expect(pauseAllowance('hourly', [], now)).toEqual({
      pausesLeft: 2,
      pausesPerWindow: 2,
      maxPauseHours: 8,
      nextPauseAvailableAt: null,
    });
    expect(pauseAllowance('hourly', [hoursAgo(30), hoursAgo(5)], now).pausesLeft).toBe(1);
    expect(pauseAllowance('hourly', [hoursAgo(2), hoursAgo(20)], now)).toMatchObject({
      pausesLeft: 0,
      nextPauseAvailableAt: hoursAgo(20 - 24).toISOString(),
    });
  });

  it('should leave monthly subscriptions one 7-day pause in any 6 months', () => {
    expect(pauseAllowance('monthly', [], now)).toMatchObject({ pausesLeft: 1, maxPauseHours: 168 });
    const used = new Date('2026-02-01T00:00:00.000Z');
    expect(pauseAllowance('monthly', [used], now)).toMatchObject({
      pausesLeft: 0,
      nextPauseAvailableAt: '2026-08-01T00:00:00.000Z',
    });
    expect(pauseAllowance('monthly', [new Date('2025-11-01T00:00:00Z')], now).pausesLeft).toBe(1);
  });
});
