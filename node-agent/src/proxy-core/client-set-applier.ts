import type { ClientSet__Output } from '@scn/proto';
import { type BackoffOptions, backoffDelay, realTimers, type Timers } from '../backoff';
import type { AgentConfigStore } from '../config/agent-config';
import type { InboundPlanner } from './inbound-plan';
import type { ProxyCore } from './proxy-core';

export interface ClientSetApplierOptions {
  /** null: no proxy core (demo nodes); a set is then only recorded. */
  core: ProxyCore | null;
  store: AgentConfigStore;
  /** Applies the inbound plan each set carries (when newer than the one served). */
  planner?: InboundPlanner;
  /** Delays between attempts at a set that failed; reset by success or by a newer set. */
  backoff?: BackoffOptions;
  timers?: Timers;
  log?: (message: string) => void;
}

/** First retry after about a second, then doubling up to a minute (with jitter). */
export const APPLY_RETRY_BACKOFF: BackoffOptions = { initialMs: 1_000, maxMs: 60_000 };

/**
 * Applies the client sets the control plane pushes to the proxy core, one at a time and in
 * order, and records a set's version (which the next report sends as applied_client_set_version)
 * only once the core has it. A set whose apply fails (the core's API refused, the config could
 * not be written) is retried with backoff and jitter until it succeeds or a newer set replaces
 * it, so a client who paid is let in without waiting for the next push or reconnect.
 */
export class ClientSetApplier {
  /** The newest set not yet applied (being applied, or waiting for its retry). */
  private pending: ClientSet__Output | null = null;
  private attempt = 0;
  private retry: unknown = null;
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly timers: Timers;
  private readonly backoff: BackoffOptions;

  constructor(private readonly options: ClientSetApplierOptions) {
    this.timers = options.timers ?? realTimers;
    this.backoff = options.backoff ?? APPLY_RETRY_BACKOFF;
  }

  /**
   * A set from the push stream: applied at once (after any apply in progress). A set newer than
   * a failing one replaces it and its retries; an older one is ignored. Resolves after this
   * first attempt, whatever its outcome.
   */
  offer(set: ClientSet__Output): Promise<void> {
    if (this.stopped) return this.queue;
    if (this.pending && BigInt(set.version) <= BigInt(this.pending.version)) return this.queue;
    this.pending = set;
    this.attempt = 0;
    this.cancelRetry();
    return this.enqueue();
  }

  /** The version waiting to be applied, if any (status, logs, tests). */
  get pendingVersion(): string | null {
    return this.pending?.version ?? null;
  }

  /** Resolves once no attempt is in progress or queued. */
  idle(): Promise<void> {
    return this.queue;
  }

  /** Cancels any retry and waits for an attempt in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelRetry();
    await this.queue;
  }

  private enqueue(): Promise<void> {
    this.queue = this.queue.then(() => this.tryPending());
    return this.queue;
  }

  private cancelRetry(): void {
    if (this.retry === null) return;
    this.timers.clearTimeout(this.retry);
    this.retry = null;
  }

  private async tryPending(): Promise<void> {
    const set = this.pending;
    if (!set || this.stopped) return;
    try {
      await this.applyOnce(set);
      if (this.pending === set) {
        this.pending = null;
        this.attempt = 0;
      }
    } catch (error) {
      // A newer set arrived meanwhile: it is already queued, and replaces this one.
      if (this.pending !== set || this.stopped) return;
      const delay = backoffDelay(this.attempt, this.backoff);
      this.attempt += 1;
      this.options.log?.(
        `applying client set v${set.version} failed: ${(error as Error).message}; ` +
          `retry ${this.attempt} in ${delay} ms`,
      );
      this.retry = this.timers.setTimeout(() => {
        this.retry = null;
        void this.enqueue();
      }, delay);
    }
  }

  /** Makes the core's users the set, then records it; throws when either fails. */
  private async applyOnce(set: ClientSet__Output): Promise<void> {
    // The plan first: a new port or transport restarts the core from its config file, and the
    // users that follow are added to the core that now runs.
    await this.options.planner?.offer(set.inboundPlan);
    if (this.options.core) await this.options.core.reconcile(set.clientUuids);
    await this.options.store.update((config) => ({
      ...config,
      allowedClients: [...set.clientUuids],
      appliedClientSetVersion: set.version,
    }));
    this.options.log?.(`applied client set v${set.version} (${set.clientUuids.length} clients)`);
  }
}
