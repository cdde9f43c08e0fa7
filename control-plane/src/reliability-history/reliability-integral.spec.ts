import {
  applyReport,
  currentReliability,
  initialReliability,
  RELIABILITY,
  type ReliabilityState,
} from '../reliability/reliability';
import { integrateReliability, type ReliabilityDayFacts } from './reliability-integral';

const S = 1000;
const MIN = 60 * S;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const T0 = Date.parse('2026-11-01T00:00:00Z');
const at = (ms: number) => new Date(T0 + ms);

function reportedAt(ms: number, score = 100): ReliabilityState {
  return { ...initialReliability(at(ms)), reliabilityAtReport: score };
}

const never: ReliabilityState = { ...initialReliability(at(0)), lastReportAt: null };

/** The same facts summed second by second: what the piecewise sum must equal exactly. */
function bySecond(state: ReliabilityState, from: Date, to: Date): ReliabilityDayFacts[] {
  const days = new Map<string, ReliabilityDayFacts>();
  const end = Math.floor(to.getTime() / S);
  for (let s = Math.floor(from.getTime() / S); s < end; s += 1) {
    const instant = new Date(s * S);
    const day = instant.toISOString().slice(0, 10);
    const facts = days.get(day) ?? {
      day,
      observedSeconds: 0,
      reliabilitySeconds: 0,
      belowSeconds: 0,
      staleSeconds: 0,
      minReliability: 100,
    };
    const score = currentReliability(state, instant);
    facts.observedSeconds += 1;
    facts.reliabilitySeconds += score;
    if (score < RELIABILITY.hideBelow) facts.belowSeconds += 1;
    if (state.lastReportAt === null || s * S - state.lastReportAt.getTime() > HOUR)
      facts.staleSeconds += 1;
    facts.minReliability = Math.min(facts.minReliability, score);
    days.set(day, facts);
  }
  return [...days.values()];
}

/** A small deterministic generator, so a failing case can be run again. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

describe('integrateReliability', () => {
  it('should count a fresh score over a whole day when the report is recent', () => {
    const days = integrateReliability(reportedAt(-10 * S), at(0), at(30 * MIN));
    expect(days).toEqual([
      {
        day: '2026-11-01',
        observedSeconds: 1800,
        reliabilitySeconds: 1800 * 100,
        belowSeconds: 0,
        staleSeconds: 0,
        minReliability: 100,
      },
    ]);
  });

  it('should return nothing when the interval is empty or reversed', () => {
    expect(integrateReliability(reportedAt(0), at(HOUR), at(HOUR))).toEqual([]);
    expect(integrateReliability(reportedAt(0), at(HOUR), at(0))).toEqual([]);
    // Less than a whole second: both ends round down to the same second.
    expect(integrateReliability(reportedAt(0), at(100), at(900))).toEqual([]);
  });

  it('should split the interval at UTC midnight when it crosses a day boundary', () => {
    const days = integrateReliability(reportedAt(-30 * S, 97), at(-10 * MIN), at(20 * MIN));
    expect(days.map((d) => [d.day, d.observedSeconds, d.reliabilitySeconds])).toEqual([
      ['2026-10-31', 600, 600 * 97],
      ['2026-11-01', 1200, 1200 * 97],
    ]);
  });

  it('should give every day its 86,400 seconds when the interval spans several days', () => {
    const days = integrateReliability(reportedAt(-HOUR * 200, 100), at(-2 * DAY), at(DAY));
    expect(days.map((d) => [d.day, d.observedSeconds])).toEqual([
      ['2026-10-30', 86_400],
      ['2026-10-31', 86_400],
      ['2026-11-01', 86_400],
    ]);
    // More than 96 hours without a report throughout: zero, stale and below all day.
    for (const d of days) {
      expect(d).toMatchObject({ reliabilitySeconds: 0, belowSeconds: 86_400, minReliability: 0 });
      expect(d.staleSeconds).toBe(86_400);
    }
  });

  it('should step the score down at each hour boundary of the report age when reports stop', () => {
    // Reported at 100 at T0; over the next 5 hours: 1 h fresh at 100, then 95, 90, 85, 80.
    const days = integrateReliability(reportedAt(0), at(0), at(5 * HOUR));
    expect(days).toEqual([
      {
        day: '2026-11-01',
        observedSeconds: 5 * 3600,
        // Second 3600 is still fresh (age exactly an hour is not stale): 3601 s at 100.
        reliabilitySeconds: 3601 * 100 + 3599 * 95 + 3600 * 90 + 3600 * 85 + 3600 * 80,
        // 95 is not below 95: below from the age of 2 hours on.
        belowSeconds: 3 * 3600,
        staleSeconds: 5 * 3600 - 3601,
        minReliability: 80,
      },
    ]);
  });

  it('should place each staleness step in the second the report age reaches the hour when the report was mid-second', () => {
    const state = reportedAt(400); // 0.4 s after T0
    const days = integrateReliability(state, at(0), at(3 * HOUR));
    // Age > 1 h from second 3601 (T0 + 3600.4 s is inside second 3600: age at its start 3599.6 s).
    // Age >= 2 h from second 7201 (age at second 7200 is 7199.6 s).
    expect(days[0]).toMatchObject({
      reliabilitySeconds: 3601 * 100 + 3600 * 95 + 3599 * 90,
      staleSeconds: 3600 + 3599,
      belowSeconds: 3599,
    });
    expect(days).toEqual(bySecond(state, at(0), at(3 * HOUR)));
  });

  it('should reach zero and stay there when the report is old enough (32 hours from 100), counting every step on the way to 96 hours and past', () => {
    const state = reportedAt(0, 100);
    const from = at(0);
    const to = at(100 * HOUR);
    const days = integrateReliability(state, from, to);
    expect(days).toEqual(bySecond(state, from, to));
    expect(days.map((d) => d.minReliability)).toEqual([80, 0, 0, 0, 0]);
    expect(currentReliability(state, at(96 * HOUR))).toBe(0);
    const last = days[days.length - 1]!;
    expect(last).toMatchObject({ day: '2026-11-05', reliabilitySeconds: 0 });
  });

  it('should stop at zero, not below, when the penalty after a day is capped at a low score', () => {
    // docs/product/states.md#subscription-and-reliability-states: after 24 h the penalty is capped at the score: a score of 30 is zero at 25 h.
    const state = reportedAt(0, 30);
    const days = integrateReliability(state, at(0), at(97 * HOUR));
    expect(days).toEqual(bySecond(state, at(0), at(97 * HOUR)));
    expect(days.reduce((sum, d) => sum + d.belowSeconds, 0)).toBe(97 * 3600);
  });

  it('should score zero and count stale throughout when a report was never made', () => {
    const days = integrateReliability(never, at(-HOUR), at(HOUR));
    expect(days).toEqual([
      {
        day: '2026-10-31',
        observedSeconds: 3600,
        reliabilitySeconds: 0,
        belowSeconds: 3600,
        staleSeconds: 3600,
        minReliability: 0,
      },
      {
        day: '2026-11-01',
        observedSeconds: 3600,
        reliabilitySeconds: 0,
        belowSeconds: 3600,
        staleSeconds: 3600,
        minReliability: 0,
      },
    ]);
  });

  it('should use the score at the report when the interval starts before the report', () => {
    // A report inside the interval: the state after it covers the seconds before it too.
    const state = applyReport(reportedAt(-2 * MIN, 90), 'client_count_failed', at(30 * S));
    const days = integrateReliability(state, at(0), at(MIN));
    expect(days[0]).toMatchObject({ reliabilitySeconds: 60 * 80, minReliability: 80 });
  });

  it('should sum in whole seconds when the ends are not whole seconds', () => {
    const days = integrateReliability(reportedAt(0), at(1_999), at(10_001));
    expect(days[0]).toMatchObject({ observedSeconds: 9, reliabilitySeconds: 900 });
  });

  it('should add up across consecutive intervals to the one interval when split anywhere', () => {
    const state = reportedAt(123_456, 98);
    const whole = integrateReliability(state, at(0), at(30 * HOUR));
    const cuts = [0, 7 * MIN, HOUR + 3 * S, 3 * HOUR, 22 * HOUR, 24 * HOUR + 17 * S, 30 * HOUR];
    const parts = cuts
      .slice(1)
      .flatMap((end, i) => integrateReliability(state, at(cuts[i]!), at(end)));
    for (const day of whole) {
      const same = parts.filter((p) => p.day === day.day);
      expect(same.reduce((s, p) => s + p.observedSeconds, 0)).toBe(day.observedSeconds);
      expect(same.reduce((s, p) => s + p.reliabilitySeconds, 0)).toBe(day.reliabilitySeconds);
      expect(same.reduce((s, p) => s + p.belowSeconds, 0)).toBe(day.belowSeconds);
      expect(same.reduce((s, p) => s + p.staleSeconds, 0)).toBe(day.staleSeconds);
      expect(Math.min(...same.map((p) => p.minReliability))).toBe(day.minReliability);
    }
  });

  it('should equal the second-by-second sum for random states and intervals', () => {
    const next = random(18);
    for (let run = 0; run < 200; run += 1) {
      const score = Math.floor(next() * 101);
      const anyMs = Math.floor((next() - 0.5) * 40 * HOUR);
      // A third on whole seconds, where "age >= k hours" and "age > k hours" fall apart.
      const reportMs = run % 3 === 0 ? anyMs - (anyMs % S) : anyMs;
      const state = run % 37 === 0 ? never : reportedAt(reportMs, score);
      const fromMs = Math.floor((next() - 0.3) * 60 * HOUR);
      const lengthMs = Math.floor(next() * (run % 25 === 0 ? 110 * HOUR : 3 * HOUR));
      const from = at(fromMs);
      const to = at(fromMs + lengthMs);
      expect(integrateReliability(state, from, to)).toEqual(bySecond(state, from, to));
    }
  });
});
