import { realTimers, type Timers } from '../backoff';
import type { Endpoint, EndpointRotation } from './control-plane-endpoints';

/** The shortest wait between two checks of the preferred endpoint; each wait is up to twice it. */
export const PREFERRED_CHECK_MS = 30_000;

export interface PreferredEndpointReturnOptions {
  /** Whether `endpoint` answers now (ControlPlaneClient.answers): true moves the agent back. */
  check: (endpoint: Endpoint) => Promise<boolean>;
  /** The shortest wait between checks (default PREFERRED_CHECK_MS); each is drawn up to twice it. */
  intervalMs?: number;
  timers?: Timers;
  /** [0, 1): where in the interval each wait falls. */
  random?: () => number;
}

/**
 * Brings an agent back to its preferred endpoint (the replica its id picks) after a failover
 * moved it away, so the fleet spreads over the replicas again once a failed one returns
 * (docs/operators.md "Several control plane replicas").
 *
 * While the agent is elsewhere, the preferred endpoint is checked every `intervalMs` to twice
 * that, each wait drawn at random: a fleet that failed over together checks at scattered times,
 * so a returning replica gets its agents back over the interval rather than all at once. When
 * it answers, the rotation moves back (every listener hears a 'returned' move: the report
 * stream and the client-set stream re-open there, the daemon reports at once) and the answer
 * counts as a contact, which ends any backoff still running. A check never moves the agent by
 * itself otherwise; a preferred endpoint that fails again after the return is left as any
 * failed endpoint is, and checked again later.
 */
export class PreferredEndpointReturn {
  private readonly timers: Timers;
  private readonly random: () => number;
  private readonly intervalMs: number;
  private timer: unknown = null;
  private checking: Promise<boolean> | null = null;
  private running = false;
  private offMove: (() => void) | null = null;

  constructor(
    private readonly rotation: EndpointRotation,
    private readonly options: PreferredEndpointReturnOptions,
  ) {
    this.timers = options.timers ?? realTimers;
    this.random = options.random ?? Math.random;
    this.intervalMs = options.intervalMs ?? PREFERRED_CHECK_MS;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.offMove = this.rotation.onMove(() => this.schedule());
    this.schedule();
  }

  /** Whether a check is waiting for its time (the agent is away from its preferred endpoint). */
  get scheduled(): boolean {
    return this.timer !== null;
  }

  /**
   * Checks the preferred endpoint now and moves back when it answers; true when it moved.
   * Nothing happens while the agent is on it already or a check is running.
   */
  async checkNow(): Promise<boolean> {
    if (this.checking) return this.checking;
    const preferred = this.rotation.preferred();
    if (!preferred || this.rotation.onPreferred) return false;
    this.checking = this.options
      .check(preferred)
      .catch(() => false)
      .then((answered) => {
        if (!answered || !this.running) return false;
        if (!this.rotation.returnTo(preferred)) return false;
        this.rotation.contact(preferred);
        return true;
      })
      .finally(() => {
        this.checking = null;
        this.schedule();
      });
    return this.checking;
  }

  stop(): void {
    this.running = false;
    this.offMove?.();
    this.offMove = null;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (!this.running || this.timer !== null || this.checking || this.rotation.onPreferred) return;
    const delay = Math.round(this.intervalMs * (1 + this.random()));
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      void this.checkNow();
    }, delay);
  }
}
