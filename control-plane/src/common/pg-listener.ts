import type { Logger } from '@nestjs/common';
import type { Notification, PoolClient, QueryConfig } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

export interface PgListenerHandlers {
  /** A notification on the channel (with a payload). */
  notified(payload: string): void;
  /** LISTEN is back after a lost connection: notifications sent meanwhile were missed. */
  reconnected(): void;
}

export interface PgListenerOptions {
  /** First wait before re-listening; doubled after each failed attempt, up to `maxDelayMs`. */
  initialDelayMs: number;
  maxDelayMs: number;
  /** How often the held connection is checked with `SELECT 1` (a frozen or vanished server sends nothing). */
  heartbeatMs: number;
  /** How long that check may take before the connection counts as lost. */
  heartbeatTimeoutMs: number;
  /** [0, 1): the jitter source (tests pin it). */
  random: () => number;
}

const DEFAULTS: PgListenerOptions = {
  initialDelayMs: 500,
  maxDelayMs: 4_000,
  heartbeatMs: 10_000,
  heartbeatTimeoutMs: 5_000,
  random: Math.random,
};

type Held = { client: PoolClient; release: (error?: Error) => void };

/**
 * LISTEN on one PostgreSQL channel over one held connection. When the connection is lost (the
 * server restarted, the network dropped, a heartbeat went unanswered) it re-listens forever,
 * waiting between attempts with capped exponential backoff and jitter (replicas that lost the
 * same server do not come back in lockstep), and calls `reconnected` once LISTEN is back so the
 * owner re-syncs what it may have missed. It logs the loss and the recovery once each, not every
 * attempt. What replicas tell each other goes through here; nothing is kept.
 */
export class PgListener {
  private held: Held | null = null;
  private closing = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  /** Since when the connection is lost (null: connected, or never connected yet). */
  private lostAt: number | null = null;
  private attempts = 0;
  private readonly options: PgListenerOptions;

  constructor(
    private readonly dataSource: DataSource,
    private readonly channel: string,
    private readonly handlers: PgListenerHandlers,
    private readonly logger: Logger,
    options: Partial<PgListenerOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** Whether LISTEN is in place right now (readiness). */
  get connected(): boolean {
    return this.held !== null;
  }

  /**
   * Listens before resolving when the database answers; otherwise resolves anyway and keeps
   * trying in the background (the process stays up, and readiness says it is not ready).
   */
  async start(): Promise<void> {
    try {
      await this.listen();
    } catch (error) {
      this.lost(error);
    }
  }

  /** Gives the connection back; call it before TypeORM's pool ends (the pool waits for it). */
  async stop(): Promise<void> {
    this.closing = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    const held = this.held;
    this.held = null;
    if (held) {
      await held.client.query(`UNLISTEN ${this.channel}`).catch(() => undefined);
      held.release();
    }
  }

  private async listen(): Promise<void> {
    const driver = this.dataSource.driver as PostgresDriver;
    const [client, release] = (await driver.obtainMasterConnection()) as [
      PoolClient,
      (error?: Error) => void,
    ];
    const held: Held = { client, release };
    client.on('notification', (message: Notification) => {
      if (message.channel === this.channel && message.payload)
        this.handlers.notified(message.payload);
    });
    // A lost connection emits 'error' (and then 'end'); a clean end by the server only 'end'.
    const onGone = (error?: Error) => this.drop(held, error ?? new Error('connection ended'));
    client.on('error', onGone);
    client.on('end', () => onGone());
    try {
      await client.query(`LISTEN ${this.channel}`);
    } catch (error) {
      this.discard(held, error);
      throw error;
    }
    if (this.closing) {
      release();
      return;
    }
    this.held = held;
    this.heartbeatTimer = setInterval(() => void this.heartbeat(held), this.options.heartbeatMs);
    this.heartbeatTimer.unref();
  }

  private async heartbeat(held: Held): Promise<void> {
    try {
      // node-postgres honours a per-query query_timeout; its types do not list it.
      const check: QueryConfig & { query_timeout: number } = {
        text: 'SELECT 1',
        query_timeout: this.options.heartbeatTimeoutMs,
      };
      await held.client.query(check);
    } catch (error) {
      this.drop(held, error);
    }
  }

  /** The held connection failed: destroy it (never back into the pool) and re-listen. */
  private drop(held: Held, error: unknown): void {
    if (this.held !== held) return; // already dropped (error then end), or never held
    this.held = null;
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
    this.discard(held, error);
    if (!this.closing) this.lost(error);
  }

  private discard(held: Held, error: unknown): void {
    held.client.removeAllListeners('notification');
    try {
      held.release(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // released already: pg-pool throws on a second release
    }
  }

  private lost(error: unknown): void {
    if (this.lostAt === null) {
      this.lostAt = Date.now();
      this.logger.warn(
        { err: { message: error instanceof Error ? error.message : String(error) } },
        `LISTEN ${this.channel} lost; re-listening with backoff until the database is back`,
      );
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.closing) return;
    const { initialDelayMs, maxDelayMs, random } = this.options;
    const ceiling = Math.min(maxDelayMs, initialDelayMs * 2 ** Math.min(this.attempts, 30));
    // "Equal jitter": at least half the backoff, so a crowd never retries at once, nor at zero.
    const delay = Math.round(ceiling / 2 + (ceiling / 2) * random());
    this.attempts += 1;
    this.retryTimer = setTimeout(() => void this.retry(), delay);
    this.retryTimer.unref();
  }

  private async retry(): Promise<void> {
    this.retryTimer = null;
    if (this.closing) return;
    try {
      await this.listen();
    } catch (error) {
      this.logger.debug(
        { err: { message: error instanceof Error ? error.message : String(error) } },
        `LISTEN ${this.channel}: attempt ${this.attempts} failed`,
      );
      this.schedule();
      return;
    }
    if (this.closing) return;
    this.logger.log(
      { downMs: this.lostAt === null ? 0 : Date.now() - this.lostAt, attempts: this.attempts },
      `LISTEN ${this.channel} is back; re-syncing what may have been missed`,
    );
    this.lostAt = null;
    this.attempts = 0;
    this.handlers.reconnected();
  }
}
