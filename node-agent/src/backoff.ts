/** Exponential backoff with jitter, shared by the report loop and the WatchClients reconnects. */
export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  /** 0..1; random() in [0, 1). Injectable for tests. */
  random?: () => number;
}

/**
 * Delay before retry number `attempt` (0-based): min(max, initial * 2^attempt), of which the
 * upper half is jittered so a fleet of agents that lost the control plane together does not
 * come back in lockstep ("equal jitter").
 */
export function backoffDelay(attempt: number, options: BackoffOptions): number {
  const random = options.random ?? Math.random;
  const ceiling = Math.min(options.maxMs, options.initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** Timers, injectable so tests can drive loops without waiting. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
