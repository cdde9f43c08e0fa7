import type { ReachabilityState } from '@scn/proto';

/**
 * How observations of one server from one country and network become an estimate
 * (docs/reachability.md#the-estimate). Pure, so the abuse rules are unit-tested.
 *
 * - Each observer counts once: its latest observation within FRESH_MS, of the server's current
 *   inbound plan (a new port starts afresh).
 * - A vantage point weighs 1. A client's report weighs CLIENT_WEIGHT times its trust.
 * - Clients never outvote vantage points: where at least one vantage point observed, the state
 *   is the vantage points' majority; the score still shows everyone's weighted share.
 * - Where no vantage point observed, the state needs MIN_CLIENT_OBSERVERS trusted accounts, so
 *   one account (or a censor's one account) cannot mark a server blocked.
 */
export const REACHABILITY_RULES = {
  /** Observations older than this do not count; estimates older than this are not shown. */
  freshMs: 2 * 3600_000,
  /** Raw observations are deleted after this. */
  keepMs: 24 * 3600_000,
  clientWeight: 0.25,
  minClientObservers: 3,
  /**
   * Trust: (agreements + 1) / (agreements + disagreements + 1), and none at all once an account
   * was contradicted by vantage points at least this often and more often than confirmed.
   */
  distrustAfter: 3,
  /** A client report is compared with vantage points' observations this close in time. */
  agreementWindowMs: 3600_000,
} as const;

export interface Observation {
  observerKind: 'probe' | 'client';
  works: boolean;
  /** The reporting account's trust, 0 to 1 (vantage points: 1). */
  trust: number;
  observedAt: Date;
}

export interface Estimate {
  /** 0 to 1000. */
  score: number;
  state: 'w' | 'b' | 'u';
  observers: number;
  probes: number;
  measuredAt: Date;
}

export function trustOf(agreements: number, disagreements: number): number {
  if (disagreements >= REACHABILITY_RULES.distrustAfter && disagreements > agreements) return 0;
  return (agreements + 1) / (agreements + disagreements + 1);
}

/** The estimate from fresh observations (one per observer); null when none counts. */
export function estimate(observations: readonly Observation[], now: Date): Estimate | null {
  const fresh = observations.filter(
    (o) =>
      now.getTime() - o.observedAt.getTime() <= REACHABILITY_RULES.freshMs &&
      (o.observerKind === 'probe' || o.trust > 0),
  );
  if (fresh.length === 0) return null;
  const weightOf = (o: Observation) =>
    o.observerKind === 'probe' ? 1 : REACHABILITY_RULES.clientWeight * o.trust;
  const total = fresh.reduce((sum, o) => sum + weightOf(o), 0);
  const working = fresh.reduce((sum, o) => sum + (o.works ? weightOf(o) : 0), 0);
  const score = Math.round((working / total) * 1000);
  const probes = fresh.filter((o) => o.observerKind === 'probe');
  let state: Estimate['state'];
  if (probes.length > 0) {
    const probesWorking = probes.filter((o) => o.works).length;
    state = probesWorking * 2 >= probes.length ? 'w' : 'b';
  } else if (fresh.length >= REACHABILITY_RULES.minClientObservers) {
    state = score >= 500 ? 'w' : 'b';
  } else {
    state = 'u';
  }
  const measuredAt = new Date(Math.max(...fresh.map((o) => o.observedAt.getTime())));
  return { score, state, observers: fresh.length, probes: probes.length, measuredAt };
}

/** What a visitor sees of a stored estimate: unknown once it is stale. */
export function visibleState(
  row: { state: 'w' | 'b' | 'u'; measuredAt: Date } | undefined,
  now: Date,
): ReachabilityState {
  if (!row || now.getTime() - row.measuredAt.getTime() > REACHABILITY_RULES.freshMs)
    return 'unknown';
  return row.state === 'w' ? 'works' : row.state === 'b' ? 'blocked' : 'unknown';
}

/**
 * The market order's penalty (docs/reachability.md#market-order): half the share of the
 * networks measured (works or blocked) where the server is blocked, in percent points, 0 to 50.
 */
export function reachPenalty(states: readonly ReachabilityState[]): number {
  const measured = states.filter((s) => s !== 'unknown');
  if (measured.length === 0) return 0;
  const blocked = measured.filter((s) => s === 'blocked').length;
  return Math.round((50 * blocked) / measured.length);
}
