import {
  applyReport,
  currentReliability,
  initialReliability,
  RELIABILITY,
  type ReliabilityState,
  settleThreshold,
  stalenessPenalty,
  viewReliability,
} from './reliability';

const T0 = new Date('2026-11-01T00:00:00Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const at = (ms: number) => new Date(T0.getTime() + ms);

function withScore(score: number, lastReportAt = T0): ReliabilityState {
  return { ...initialReliability(lastReportAt), reliabilityAtReport: score };
}

/** Reports every minute from `from` for `count` reports. */
function reportEveryMinute(state: ReliabilityState, from: number, count: number): ReliabilityState {
  let s = state;
  for (let i = 1; i <= count; i += 1) s = applyReport(s, 'ok', at(from + i * MIN));
  return s;
}

describe('staleness (spec 02 §4)', () => {
  it.each([
    [0, 0],
    [HOUR, 0],
    [HOUR + 1, 5],
    [2 * HOUR + 1, 10],
    [4 * HOUR, 20],
    [23 * HOUR + 59 * MIN, 20],
    [24 * HOUR, 20],
    [25 * HOUR, 30],
    [30 * HOUR, 80],
    [96 * HOUR, 90],
    [96 * HOUR + 1, 90],
  ])('should take the right penalty from 90 after %d ms', (age, penalty) => {
    expect(stalenessPenalty(90, age)).toBe(penalty);
  });

  it('should cap the 24-96 h penalty at the current reliability', () => {
    expect(stalenessPenalty(40, 30 * HOUR)).toBe(40);
  });

  it('should give 0 after 96 hours', () => {
    expect(currentReliability(withScore(100), at(96 * HOUR + 1))).toBe(0);
  });

  it('should decay a silent node with nobody reporting', () => {
    const state = withScore(100);
    expect(currentReliability(state, at(30 * MIN))).toBe(100);
    expect(currentReliability(state, at(3 * HOUR + 5 * MIN))).toBe(85);
    expect(currentReliability(state, at(26 * HOUR))).toBe(60);
  });
});

describe('reports', () => {
  it('should add 2 per fresh report up to 100', () => {
    const rising = reportEveryMinute(withScore(50), 0, 10);
    expect(rising.reliabilityAtReport).toBe(70);
    const capped = reportEveryMinute(withScore(99), 0, 3);
    expect(capped.reliabilityAtReport).toBe(100);
  });

  it('should not credit reports sent faster than the protocol interval', () => {
    let state = applyReport(withScore(60), 'ok', at(MIN));
    for (let i = 1; i <= 10; i += 1) state = applyReport(state, 'ok', at(MIN + i * 1000));
    expect(state.reliabilityAtReport).toBe(62);
    state = applyReport(state, 'ok', at(MIN + RELIABILITY.minCreditIntervalMs));
    expect(state.reliabilityAtReport).toBe(64);
  });

  it('should take 10 for failed client counting and 5 for a malformed report', () => {
    expect(applyReport(withScore(80), 'client_count_failed', at(MIN)).reliabilityAtReport).toBe(70);
    expect(applyReport(withScore(80), 'malformed', at(MIN)).reliabilityAtReport).toBe(75);
    expect(applyReport(withScore(4), 'client_count_failed', at(MIN)).reliabilityAtReport).toBe(0);
  });

  it('should start the climb from the decayed score when a node comes back', () => {
    const back = applyReport(withScore(100), 'ok', at(5 * HOUR + 1));
    expect(back.reliabilityAtReport).toBe(82); // 100 - 20 + 2
    expect(viewReliability(back, at(5 * HOUR + 2)).stale).toBe(false);
  });
});

describe('availability', () => {
  it('should be available at 50 or more with a fresh report', () => {
    expect(viewReliability(withScore(50), at(MIN)).available).toBe(true);
    expect(viewReliability(withScore(49), at(MIN)).available).toBe(false);
  });

  it('should be unavailable when the last report is older than an hour', () => {
    const view = viewReliability(withScore(100), at(HOUR + 1));
    expect(view).toMatchObject({ stale: true, available: false, reliability: 95 });
  });
});

describe('network lifecycle: below 95% hidden, 14 days to recover, else banned', () => {
  it('should hide a node below 95 and show it again at 95', () => {
    const low = settleThreshold(applyReport(withScore(95), 'malformed', at(MIN)), at(MIN));
    expect(viewReliability(low, at(MIN))).toMatchObject({
      reliability: 90,
      hidden: true,
      banned: false,
    });
    expect(low.belowThresholdSince).toEqual(at(MIN));
    const recovered = reportEveryMinute(low, MIN, 3);
    expect(recovered.reliabilityAtReport).toBe(96);
    expect(recovered.belowThresholdSince).toBeNull();
    expect(viewReliability(recovered, at(4 * MIN)).hidden).toBe(false);
  });

  it('should ban a node that stays below 95 for 14 days, and keep it banned', () => {
    let state = settleThreshold(withScore(60), T0);
    expect(viewReliability(state, T0).banDeadline).toEqual(at(14 * DAY));
    state = settleThreshold(state, at(14 * DAY - 1));
    expect(state.bannedAt).toBeNull();
    state = settleThreshold(state, at(14 * DAY));
    expect(state.bannedAt).toEqual(at(14 * DAY));
    const after = reportEveryMinute(state, 14 * DAY, 30);
    expect(viewReliability(after, at(14 * DAY + 31 * MIN))).toMatchObject({
      banned: true,
      hidden: true,
      available: false,
    });
  });

  it('should date the drop below 95 from the hour staleness took it there, even if no job ran then', () => {
    // 100 at T0; after 1 h it is 95, after 2 h 90: below from 2 h on.
    const state = settleThreshold(withScore(100), at(5 * DAY));
    expect(state.belowThresholdSince).toEqual(at(2 * HOUR));
    expect(settleThreshold(withScore(100), at(14 * DAY + 2 * HOUR - 1)).bannedAt).toBeNull();
    expect(settleThreshold(withScore(100), at(14 * DAY + 2 * HOUR)).bannedAt).not.toBeNull();
  });

  it('should give the same answer however often the job runs (idempotent per period)', () => {
    let often = withScore(100);
    for (let t = 0; t <= 3 * DAY; t += 10 * MIN) often = settleThreshold(often, at(t));
    const once = settleThreshold(withScore(100), at(3 * DAY));
    expect(often).toEqual(once);
  });
});
