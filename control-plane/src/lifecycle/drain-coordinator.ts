import type { LoggerService } from '@nestjs/common';

/**
 * One part of the process that holds connections from outside (the HTTP server, the agent gRPC
 * server, the realtime gateway) as the drain sees it.
 */
export interface DrainParticipant {
  /** How the part is named in the drain's log lines and report ("http", "grpc"). */
  readonly name: string;
  /** At once when the drain starts, while requests are still served (e.g. end push streams). */
  draining?(): void;
  /** After the delay: take no new work; resolves once what is in hand is finished. */
  stop(): Promise<void>;
  /** At the bound: cut whatever is still open. */
  force(): void;
}

export type DrainPhase = 'serving' | 'draining' | 'stopping' | 'stopped';

/** What one drain took, for the shutdown log line and the tests that measure it. */
export interface DrainReport {
  reason: string;
  /** Readiness 503 to the listener closing (DRAIN_DELAY_MS). */
  delayMs: number;
  /** The listener closing to the last participant done (at most SHUTDOWN_TIMEOUT_MS). */
  stopMs: number;
  /** The participants still busy at the bound, whose connections were cut. */
  forced: string[];
}

export interface DrainSettings {
  delayMs: number;
  timeoutMs: number;
}

/** Time for the drain: injected so its unit tests run without waiting. */
export interface DrainTimers {
  now(): number;
  /** Resolves after `ms`; `cancel` lets the process exit without waiting for it. */
  wait(ms: number): { done: Promise<void>; cancel(): void };
}

export const systemDrainTimers: DrainTimers = {
  now: () => performance.now(),
  wait: (ms) => {
    let timer: NodeJS.Timeout | undefined;
    const done = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    });
    return { done, cancel: () => clearTimeout(timer) };
  },
};

type DrainLogger = Pick<LoggerService, 'log' | 'warn'>;

/**
 * The order of a clean shutdown (docs/architecture.md#shutdown-and-drains): readiness turns 503
 * at once while everything is still served, so a balancer moves away during the delay; then each
 * participant stops taking work and finishes what it holds, until a bound after which the rest
 * is cut. The process exits after `drain()` resolves (main.ts), never before.
 */
export class DrainCoordinator {
  private readonly participants = new Set<DrainParticipant>();
  private current: DrainPhase = 'serving';
  private drainReason: string | null = null;
  private running: Promise<DrainReport> | null = null;

  constructor(
    private readonly settings: DrainSettings,
    private readonly logger: DrainLogger,
    private readonly timers: DrainTimers = systemDrainTimers,
  ) {}

  get phase(): DrainPhase {
    return this.current;
  }

  /** True from the signal on: readiness answers 503, HTTP responses carry Connection: close. */
  get draining(): boolean {
    return this.current !== 'serving';
  }

  /** What started the drain (the signal), or null while serving. */
  get reason(): string | null {
    return this.drainReason;
  }

  /**
   * Adds a participant; returns how to remove it. One that joins during a drain is told at once
   * (a late stream is ended), and after the listener closed it is stopped at once too.
   */
  register(participant: DrainParticipant): () => void {
    this.participants.add(participant);
    if (this.draining) this.tell(participant);
    return () => this.participants.delete(participant);
  }

  /** Starts the drain (a second call gets the first one's report). */
  drain(reason: string): Promise<DrainReport> {
    this.running ??= this.run(reason);
    return this.running;
  }

  private async run(reason: string): Promise<DrainReport> {
    const startedAt = this.timers.now();
    this.current = 'draining';
    this.drainReason = reason;
    this.logger.log(
      { reason, delayMs: this.settings.delayMs, timeoutMs: this.settings.timeoutMs },
      'Draining: readiness answers 503, requests are still served',
    );
    for (const participant of this.participants) this.tell(participant);
    if (this.settings.delayMs > 0) await this.timers.wait(this.settings.delayMs).done;

    const stoppingAt = this.timers.now();
    this.current = 'stopping';
    const busy = new Set(this.participants);
    const bound = this.timers.wait(this.settings.timeoutMs);
    const everyStop = Promise.all(
      [...busy].map((participant) =>
        this.stopOne(participant).then(() => {
          busy.delete(participant);
        }),
      ),
    );
    await Promise.race([everyStop, bound.done]);
    bound.cancel();
    const forced = [...busy].map((participant) => participant.name);
    for (const participant of busy) this.forceOne(participant);
    if (forced.length > 0) {
      this.logger.warn(
        { forced, timeoutMs: this.settings.timeoutMs },
        'Shutdown bound reached: open connections cut',
      );
    }
    this.current = 'stopped';
    const report: DrainReport = {
      reason,
      delayMs: Math.round(stoppingAt - startedAt),
      stopMs: Math.round(this.timers.now() - stoppingAt),
      forced,
    };
    this.logger.log(report, 'Drained');
    return report;
  }

  /** A participant learns of the drain; one that joins late is stopped (or cut) as the rest were. */
  private tell(participant: DrainParticipant): void {
    try {
      participant.draining?.();
    } catch (err) {
      this.logger.warn({ err, participant: participant.name }, 'drain start failed');
    }
    if (this.current === 'stopping') void this.stopOne(participant);
    // Past the bound there is no waiting left: cut at once.
    if (this.current === 'stopped') this.forceOne(participant);
  }

  /** A participant's stop, never rejecting: a failure is logged, and it counts as stopped. */
  private async stopOne(participant: DrainParticipant): Promise<void> {
    try {
      await participant.stop();
    } catch (err) {
      this.logger.warn({ err, participant: participant.name }, 'drain stop failed');
    }
  }

  private forceOne(participant: DrainParticipant): void {
    try {
      participant.force();
    } catch (err) {
      this.logger.warn({ err, participant: participant.name }, 'forced close failed');
    }
  }
}
