import type { ReliabilityState } from '../reliability/reliability';
import {
  HIDDEN_GRACE_MS,
  proRataMicro,
  unableNow,
  unableToServe,
  unusedPaidMs,
  WATCH_GAP_MS,
  watchingSince,
} from './server-drop-rules';

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

describe('unableNow', () => {
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
    // At 100, two full hours without a report cost 10 points (docs/product/states.md#subscription-and-reliability-states).
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

describe('unableToServe', () => {
  const longAgo = ago(30 * DAY);

  it('should wait for a hidden server to stay hidden an hour', () => {
    const blip = server({ reliabilityAtReport: 90, belowThresholdSince: ago(HIDDEN_GRACE_MS - 1) });
    expect(unableToServe(blip, now, longAgo)).toBeNull();
    const down = server({ reliabilityAtReport: 90, belowThresholdSince: ago(HIDDEN_GRACE_MS) });
    expect(unableToServe(down, now, longAgo)).toEqual({ reason: 'hidden', since: ago(HOUR) });
  });

  it('should count only the hidden time the control plane watched, but refund from the start', () => {
    // Silent for 5 hours because we were down: under 95% for 3 hours, watched for 30 minutes.
    const silent = server({ lastReportAt: ago(5 * HOUR) });
    expect(unableToServe(silent, now, ago(30 * 60_000))).toBeNull();
    expect(unableToServe(silent, now, ago(HOUR))).toEqual({
      reason: 'hidden',
      since: ago(3 * HOUR),
    });
  });

  it('should not wait for a banned server', () => {
    expect(unableToServe(server({ bannedAt: now }), now, now)).toEqual({
      reason: 'banned',
      since: now,
    });
  });
});

describe('watchingSince', () => {
  it('should start again after a gap between the job runs, and before the first run', () => {
    expect(watchingSince(null, now)).toEqual(now);
    const steady = { lastRunAt: ago(60_000), watchingSince: ago(DAY) };
    expect(watchingSince(steady, now)).toEqual(ago(DAY));
    const gap = { lastRunAt: ago(WATCH_GAP_MS + 1), watchingSince: ago(DAY) };
    expect(watchingSince(gap, now)).toEqual(now);
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
