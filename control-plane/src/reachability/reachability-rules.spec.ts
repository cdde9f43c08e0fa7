import {
  estimate,
  type Observation,
  reachPenalty,
  trustOf,
  visibleState,
} from './reachability-rules';

const NOW = new Date('2026-11-28T12:00:00Z');
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);
const probe = (works: boolean, minutes = 1): Observation => ({
  observerKind: 'probe',
  works,
  trust: 1,
  observedAt: ago(minutes),
});
const client = (works: boolean, trust = 1, minutes = 1): Observation => ({
  observerKind: 'client',
  works,
  trust,
  observedAt: ago(minutes),
});

describe('estimate', () => {
  it('should say blocked when the one vantage point there cannot reach the server', () => {
    expect(estimate([probe(false)], NOW)).toMatchObject({ state: 'b', score: 0, probes: 1 });
  });

  it('should not let clients outvote a vantage point, however many report', () => {
    const lying = Array.from({ length: 40 }, () => client(false));
    const result = estimate([probe(true), ...lying], NOW)!;
    expect(result.state).toBe('w');
    expect(result.observers).toBe(41);
    // The score still shows everyone's weighted share: 1 / (1 + 40 x 0.25).
    expect(result.score).toBe(91);
  });

  it('should need three trusted accounts where no vantage point observed', () => {
    expect(estimate([client(false), client(false)], NOW)!.state).toBe('u');
    expect(estimate([client(false), client(false), client(false)], NOW)!.state).toBe('b');
    expect(estimate([client(true), client(true), client(false)], NOW)!.state).toBe('w');
  });

  it('should count nothing from distrusted accounts', () => {
    const distrusted = [client(false, 0), client(false, 0), client(false, 0), client(false, 0)];
    expect(estimate(distrusted, NOW)).toBeNull();
    expect(estimate([...distrusted, client(true), client(true), client(true)], NOW)!.state).toBe(
      'w',
    );
  });

  it('should forget observations older than two hours', () => {
    expect(estimate([probe(false, 121)], NOW)).toBeNull();
    expect(estimate([probe(false, 121), probe(true, 5)], NOW)).toMatchObject({
      state: 'w',
      observers: 1,
      measuredAt: ago(5),
    });
  });

  it('should take the vantage points majority, a tie counting as working', () => {
    expect(estimate([probe(true), probe(false)], NOW)!.state).toBe('w');
    expect(estimate([probe(true), probe(false), probe(false)], NOW)!.state).toBe('b');
  });
});

describe('trustOf', () => {
  it('should fall to nothing once contradicted three times and more often than confirmed', () => {
    expect(trustOf(0, 0)).toBe(1);
    expect(trustOf(0, 2)).toBeCloseTo(1 / 3);
    expect(trustOf(0, 3)).toBe(0);
    expect(trustOf(5, 3)).toBeCloseTo(6 / 9);
    expect(trustOf(3, 4)).toBe(0);
  });
});

describe('visibleState', () => {
  it('should show a stale or missing estimate as not measured', () => {
    expect(visibleState(undefined, NOW)).toBe('unknown');
    expect(visibleState({ state: 'b', measuredAt: ago(121) }, NOW)).toBe('unknown');
    expect(visibleState({ state: 'b', measuredAt: ago(1) }, NOW)).toBe('blocked');
    expect(visibleState({ state: 'w', measuredAt: ago(1) }, NOW)).toBe('works');
  });
});

describe('reachPenalty', () => {
  it('should be half the blocked share of the measured networks, in percent points', () => {
    expect(reachPenalty([])).toBe(0);
    expect(reachPenalty(['unknown', 'unknown'])).toBe(0);
    expect(reachPenalty(['works', 'blocked'])).toBe(25);
    expect(reachPenalty(['blocked', 'blocked', 'unknown'])).toBe(50);
    expect(reachPenalty(['works', 'works', 'works', 'blocked'])).toBe(13);
  });
});
