import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { type OnGatewayConnection, WebSocketGateway, WebSocketServer } from '@nestjs/websockets';
import type { Server, Socket } from 'socket.io';
import { SESSION_COOKIE } from '../auth/session-cookie';
import { SessionService } from '../auth/session.service';
import type { PgListener } from '../common/pg-listener';
import { PgChannels } from '../database/pg-channels';
import { DrainCoordinator } from '../lifecycle/drain-coordinator';

/** docs/product/calls.md#market-and-account-calls: the realtime events the portal listens for. */
export const REALTIME_EVENTS = {
  serverListUpdated: 'server-list-updated',
  /** A deposit was credited; a wallet page refetches its own wallet. */
  walletUpdated: 'wallet-updated',
  /**
   * One of the account's subscriptions changed without its request (a blocked server replaced,
   * docs/reachability.md#replacements): its subscription pages refetch. To the account's room.
   */
  subscriptionUpdated: 'subscription-updated',
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
  /**
   * A server that could not serve was dropped from subscriptions; the wire name
   * predates the name "server drop" (docs/api.md) and stays.
   */
  | 'withdrawn'
  /** A server was promoted: the market's order changed. */
  | 'promotion'
  /** A server became blocked (or works again) somewhere: its badges and the order changed. */
  | 'reachability';

/** The PostgreSQL channel that carries events to every replica. */
export const REALTIME_CHANNEL = 'scn_realtime';

/** The room of one account's sockets: events about its own wallet go there only. */
export const accountRoom = (accountUuid: string): string => `account:${accountUuid}`;

/** The session token a socket presents: `auth.token` (bearer) first, else the session cookie. */
export function socketToken(handshake: {
  auth?: Record<string, unknown>;
  headers: { cookie?: string };
}): string | null {
  const bearer = handshake.auth?.token;
  if (typeof bearer === 'string' && bearer.length > 0) return bearer;
  for (const part of (handshake.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE && value.length > 0) {
      try {
        return decodeURIComponent(value.join('=')) || null;
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** Events that arrive within this window reach the browsers as one (they only trigger a refetch). */
const COALESCE_MS = 100;

/**
 * The socket.io gateway on the HTTP port (path /socket.io). Events carry no private data: a
 * client that hears one refetches through the authenticated REST API. `server-list-updated`
 * goes to every socket; `wallet-updated` only to the sockets of the wallet's owner, which
 * joined their account's room at connection by presenting a live session (bearer or cookie).
 *
 * Several replicas: an event is published with pg_notify and every replica (this one included)
 * hears it on its LISTEN connection and emits it to its own sockets, so a browser connected to
 * replica A learns of a purchase made on replica B. No Redis adapter is needed for events this
 * small, and nothing is kept in memory that replicas could disagree on.
 */
@Injectable()
@WebSocketGateway({ transports: ['polling', 'websocket'] })
export class RealtimeGateway implements OnModuleInit, OnModuleDestroy, OnGatewayConnection {
  private readonly logger = new Logger('RealtimeGateway');
  private readonly listener: PgListener;
  private pending: { reasons: Set<string>; timer: NodeJS.Timeout } | null = null;
  private readonly unregisterDrain: () => void;

  @WebSocketServer()
  private server: Server | undefined;

  constructor(
    private readonly channels: PgChannels,
    private readonly sessions: SessionService,
    drain: DrainCoordinator,
  ) {
    // At stop, when the balancer has moved away: every browser reconnects by itself, elsewhere.
    this.unregisterDrain = drain.register({
      name: 'realtime',
      stop: async () => this.closeTransports(),
      force: () => this.closeTransports(),
    });
    this.listener = channels.listener(
      REALTIME_CHANNEL,
      {
        notified: (payload) => {
          try {
            const { event, reason, account } = JSON.parse(payload) as {
              event?: string;
              reason: string;
              account?: string;
            };
            this.receive(event, reason, account);
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

  /**
   * A socket with a live session joins its account's room (a socket without one, or whose
   * session cannot be checked now, stays anonymous: it hears the public events only).
   */
  async handleConnection(socket: Socket): Promise<void> {
    const token = socketToken(socket.handshake);
    if (!token) return;
    try {
      const session = await this.sessions.authenticate(token);
      if (session && socket.connected) await socket.join(accountRoom(session.account.uuid));
    } catch (err) {
      this.logger.warn({ err }, 'could not check a socket session; it stays anonymous');
    }
  }

  /** Whether LISTEN is in place (readiness). */
  get listening(): boolean {
    return this.listener.connected;
  }

  /** socket.io clients connected to this replica now (metrics). */
  get connectedClients(): number {
    return this.server?.sockets.sockets.size ?? 0;
  }

  /** Before TypeORM's pool ends (it waits for every held connection, this one included). */
  async onModuleDestroy(): Promise<void> {
    this.unregisterDrain();
    if (this.pending) clearTimeout(this.pending.timer);
    await this.listener.stop();
  }

  /**
   * Closes every client's transport. Not a socket.io disconnect: after one of those a client stays
   * away; a closed transport ("transport close") makes it reconnect with its backoff.
   */
  private closeTransports(): void {
    this.server?.engine.close();
  }

  /** A server appeared, changed availability, address, settings or subscribers, or disappeared. */
  serverListUpdated(reason: ServerListChange): void {
    this.publish(REALTIME_EVENTS.serverListUpdated, reason);
  }

  /**
   * An account's wallet changed without its request (the deposit watcher credited it, or a
   * withdrawal's payout was confirmed or failed and given back): its own sockets refetch the
   * wallet through the authenticated API. The event carries no amounts.
   */
  walletUpdated(accountUuid: string, reason: 'deposit' | 'deposit_seen' | 'withdrawal'): void {
    this.publish(REALTIME_EVENTS.walletUpdated, reason, accountUuid);
  }

  /** An account's subscription changed without its request; its own sockets refetch it. */
  subscriptionUpdated(accountUuid: string, reason: 'server_replaced'): void {
    this.publish(REALTIME_EVENTS.subscriptionUpdated, reason, accountUuid);
  }

  /** To every replica's sockets through pg_notify (each hears it back on REALTIME_CHANNEL). */
  private publish(event: RealtimeEvent, reason: string, account?: string): void {
    const payload = JSON.stringify({ event, reason, account });
    this.channels.notify(REALTIME_CHANNEL, payload).catch((err: unknown) => {
      // Fall back to this replica's own sockets: better a partial refresh than none.
      this.logger.warn({ err }, 'pg_notify failed; emitting locally only');
      this.receive(event, reason, account);
    });
  }

  /** An event heard on REALTIME_CHANNEL (or published while pg_notify failed): to the sockets. */
  private receive(event: string | undefined, reason: string, account?: string): void {
    if (event === REALTIME_EVENTS.walletUpdated || event === REALTIME_EVENTS.subscriptionUpdated) {
      // Only to the owner's sockets; an event without an account reaches nobody.
      if (typeof account !== 'string') return;
      this.server?.to(accountRoom(account)).emit(event, { reason, at: new Date().toISOString() });
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
