import type { ReliabilityState } from '../reliability/reliability';
import {
  HIDDEN_GRACE_MS,
  proRataMicro,
  unableDuringPeriod,
  unableNow,
  unusedPaidMs,
} from './withdrawal-rules';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = new Date('2026-11-20T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

function server(state: Partial<ReliabilityState> = {}): ReliabilityState {
  return {
    reliabilityAtReport: 100,
    lastReportAt: now,
    lastCreditedAt: now,
    belowThresholdSince: null,
    bannedAt: null,
    ...state,
  };
}

describe('unableNow (before a period is paid)', () => {
  it('should let a fresh server at 95% or more serve', () => {
    expect(unableNow(server({ reliabilityAtReport: 95 }), now)).toBeNull();
  });

  it('should count a server under 95% as hidden since it went under', () => {
    expect(unableNow(server({ reliabilityAtReport: 90, lastReportAt: ago(60_000) }), now)).toEqual({
      reason: 'hidden',
      since: ago(60_000),
    });
  });

  it('should count a silent server as hidden from the hour staleness took it under 95%', () => {
    // At 100, two full hours without a report cost 10 points (spec 02 §4).
    expect(unableNow(server({ lastReportAt: ago(5 * HOUR) }), now)).toEqual({
      reason: 'hidden',
      since: ago(3 * HOUR),
    });
  });

  it('should count a banned server as banned, from when it went under 95%', () => {
    expect(unableNow(server({ bannedAt: ago(HOUR) }), now)).toEqual({
      reason: 'banned',
      since: ago(HOUR),
    });
    expect(
      unableNow(server({ bannedAt: ago(HOUR), belowThresholdSince: ago(15 * DAY) }), now),
    ).toEqual({ reason: 'banned', since: ago(15 * DAY) });
  });
});

describe('unableDuringPeriod', () => {
  it('should wait for a hidden server to stay hidden an hour', () => {
    const blip = server({ reliabilityAtReport: 90, belowThresholdSince: ago(HIDDEN_GRACE_MS - 1) });
    expect(unableDuringPeriod(blip, now)).toBeNull();
    const down = server({ reliabilityAtReport: 90, belowThresholdSince: ago(HIDDEN_GRACE_MS) });
    expect(unableDuringPeriod(down, now)).toEqual({ reason: 'hidden', since: ago(HOUR) });
  });

  it('should not wait for a banned server', () => {
    expect(unableDuringPeriod(server({ bannedAt: now }), now)).toEqual({
      reason: 'banned',
      since: now,
    });
  });
});

describe('unusedPaidMs', () => {
  const active = {
    status: 'active' as const,
    pauseReason: null,
    pausedAt: null,
    expiresAt: new Date(now.getTime() + 10 * DAY),
    billingCycle: 'monthly' as const,
  };

  it('should count from when the server stopped serving to the end of the paid time', () => {
    expect(unusedPaidMs(active, ago(DAY))).toBe(11 * DAY);
  });

  it('should never exceed one period, nor go below 0', () => {
    expect(unusedPaidMs(active, ago(40 * DAY))).toBe(30 * DAY);
    expect(unusedPaidMs(active, new Date(now.getTime() + 11 * DAY))).toBe(0);
  });

  it('should stop the clock at a client pause and give nothing when the pause is unpaid', () => {
    const paused = { ...active, status: 'paused' as const, pausedAt: ago(2 * DAY) };
    expect(unusedPaidMs({ ...paused, pauseReason: 'user' }, now)).toBe(12 * DAY);
    expect(unusedPaidMs({ ...paused, pauseReason: 'insufficient_funds' }, now)).toBe(0);
  });
});

describe('proRataMicro', () => {
  it('should round up to the next micro-SSL, never above the amount', () => {
    expect(proRataMicro(10_000_000n, 5 * 60_000, 100 * HOUR)).toBe(8_334n);
    expect(proRataMicro(10_000_000n, 50 * HOUR, 100 * HOUR)).toBe(5_000_000n);
    expect(proRataMicro(10_000_000n, 200 * HOUR, 100 * HOUR)).toBe(10_000_000n);
    expect(proRataMicro(10_000_000n, 0, 100 * HOUR)).toBe(0n);
    expect(proRataMicro(0n, HOUR, 100 * HOUR)).toBe(0n);
  });
});
