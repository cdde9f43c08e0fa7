import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { WebSocketGateway, WebSocketServer } from '@nestjs/websockets';
import type { Server } from 'socket.io';
import type { PgListener } from '../common/pg-listener';
import { PgChannels } from '../database/pg-channels';

/** spec 01 §7: the realtime events the portal listens for. */
export const REALTIME_EVENTS = {
  serverListUpdated: 'server-list-updated',
  /** issue 17: a deposit was credited; a wallet page refetches its own wallet. */
  walletUpdated: 'wallet-updated',
} as const;
type RealtimeEvent = (typeof REALTIME_EVENTS)[keyof typeof REALTIME_EVENTS];

export type ServerListChange =
  | 'added'
  | 'availability'
  | 'address'
  | 'updated'
  | 'removed'
  | 'subscription'
  /** LISTEN came back after a database outage: events may have been missed, refetch. */
  | 'resync'
  /** A server that could not serve was dropped from subscriptions (issue 15 §7). */
  | 'withdrawn';

/** The PostgreSQL channel that carries events to every replica. */
export const REALTIME_CHANNEL = 'scn_realtime';

/** Events that arrive within this window reach the browsers as one (they only trigger a refetch). */
const COALESCE_MS = 100;

/**
 * The socket.io gateway on the HTTP port (path /socket.io). Events carry no private data: a
 * client that hears one refetches through the authenticated REST API.
 *
 * Several replicas: an event is published with pg_notify and every replica (this one included)
 * hears it on its LISTEN connection and emits it to its own sockets, so a browser connected to
 * replica A learns of a purchase made on replica B. No Redis adapter is needed for events this
 * small, and nothing is kept in memory that replicas could disagree on.
 */
@Injectable()
@WebSocketGateway({ transports: ['polling', 'websocket'] })
export class RealtimeGateway implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('RealtimeGateway');
  private readonly listener: PgListener;
  private pending: { reasons: Set<string>; timer: NodeJS.Timeout } | null = null;

  @WebSocketServer()
  private server: Server | undefined;

  constructor(private readonly channels: PgChannels) {
    this.listener = channels.listener(
      REALTIME_CHANNEL,
      {
        notified: (payload) => {
          try {
            const { event, reason } = JSON.parse(payload) as { event?: string; reason: string };
            this.receive(event, reason);
          } catch (err) {
            this.logger.warn({ err }, 'ignored a malformed realtime notification');
          }
        },
        // Events may have been missed meanwhile: tell the browsers to refetch once.
        reconnected: () => this.deliver('resync'),
      },
      this.logger,
    );
  }

  onModuleInit(): Promise<void> {
    return this.listener.start();
  }

  /** Whether LISTEN is in place (readiness). */
  get listening(): boolean {
    return this.listener.connected;
  }

  /** Before TypeORM's pool ends (it waits for every held connection, this one included). */
  async onModuleDestroy(): Promise<void> {
    if (this.pending) clearTimeout(this.pending.timer);
    await this.listener.stop();
  }

  /** A server appeared, changed availability, address, settings or subscribers, or disappeared. */
  serverListUpdated(reason: ServerListChange): void {
    this.publish(REALTIME_EVENTS.serverListUpdated, reason);
  }

  /**
   * A wallet changed without its owner's request (the deposit watcher credited it, or a
   * withdrawal's payout was confirmed or failed and given back). Carries no account: every
   * wallet page refetches its own wallet through the authenticated API, which is cheap next to
   * how rarely deposits and withdrawals settle.
   */
  walletUpdated(reason: 'deposit' | 'withdrawal'): void {
    this.publish(REALTIME_EVENTS.walletUpdated, reason);
  }

  /** To every replica's sockets through pg_notify (each hears it back on REALTIME_CHANNEL). */
  private publish(event: RealtimeEvent, reason: string): void {
    const payload = JSON.stringify({ event, reason });
    this.channels.notify(REALTIME_CHANNEL, payload).catch((err: unknown) => {
      // Fall back to this replica's own sockets: better a partial refresh than none.
      this.logger.warn({ err }, 'pg_notify failed; emitting locally only');
      this.receive(event, reason);
    });
  }

  /** An event heard on REALTIME_CHANNEL (or published while pg_notify failed): to the sockets. */
  private receive(event: string | undefined, reason: string): void {
    if (event === REALTIME_EVENTS.walletUpdated) {
      this.server?.emit(REALTIME_EVENTS.walletUpdated, { reason, at: new Date().toISOString() });
    } else {
      this.deliver(reason);
    }
  }

  private deliver(reason: string): void {
    if (this.pending) {
      this.pending.reasons.add(reason);
      return;
    }
    const reasons = new Set([reason]);
    const timer = setTimeout(() => {
      this.pending = null;
      for (const r of reasons) {
        this.server?.emit(REALTIME_EVENTS.serverListUpdated, {
          reason: r,
          at: new Date().toISOString(),
        });
      }
      this.logger.debug({ reasons: [...reasons] }, 'server-list-updated');
    }, COALESCE_MS);
    timer.unref();
    this.pending = { reasons, timer };
  }
}
