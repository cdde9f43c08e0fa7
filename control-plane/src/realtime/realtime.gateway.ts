import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { WebSocketGateway, WebSocketServer } from '@nestjs/websockets';
import type { Notification, PoolClient } from 'pg';
import type { Server } from 'socket.io';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/** spec 01 §7: the realtime events the portal listens for. */
export const REALTIME_EVENTS = { serverListUpdated: 'server-list-updated' } as const;

export type ServerListChange =
  'added' | 'availability' | 'address' | 'updated' | 'removed' | 'subscription';

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
  private connection: { client: PoolClient; release: () => void } | null = null;
  private closing = false;
  private pending: { reasons: Set<string>; timer: NodeJS.Timeout } | null = null;

  @WebSocketServer()
  private server: Server | undefined;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    await this.listen();
  }

  /** Before TypeORM's pool ends (it waits for every held connection, this one included). */
  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    if (this.pending) clearTimeout(this.pending.timer);
    const connection = this.connection;
    this.connection = null;
    if (connection) {
      await connection.client.query(`UNLISTEN ${REALTIME_CHANNEL}`).catch(() => undefined);
      connection.release();
    }
  }

  /** A server appeared, changed availability, address, settings or subscribers, or disappeared. */
  serverListUpdated(reason: ServerListChange): void {
    const payload = JSON.stringify({ event: REALTIME_EVENTS.serverListUpdated, reason });
    this.dataSource
      .query(`SELECT pg_notify($1, $2)`, [REALTIME_CHANNEL, payload])
      .catch((err: unknown) => {
        // Fall back to this replica's own sockets: better a partial refresh than none.
        this.logger.warn({ err }, 'pg_notify failed; emitting locally only');
        this.deliver(reason);
      });
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

  private async listen(): Promise<void> {
    const driver = this.dataSource.driver as PostgresDriver;
    const [client, release] = (await driver.obtainMasterConnection()) as [PoolClient, () => void];
    client.on('notification', (message: Notification) => {
      if (message.channel !== REALTIME_CHANNEL || !message.payload) return;
      try {
        const { reason } = JSON.parse(message.payload) as { reason: string };
        this.deliver(reason);
      } catch (err) {
        this.logger.warn({ err }, 'ignored a malformed realtime notification');
      }
    });
    client.on('error', (error: Error) => {
      if (this.closing) return;
      this.logger.error({ err: error }, 'realtime LISTEN connection lost; reconnecting');
      this.connection = null;
      release();
      setTimeout(() => {
        this.listen()
          // Events may have been missed meanwhile: tell the browsers to refetch once.
          .then(() => this.deliver('updated'))
          .catch((err: unknown) => this.logger.error({ err }, 'realtime LISTEN reconnect failed'));
      }, 1000);
    });
    await client.query(`LISTEN ${REALTIME_CHANNEL}`);
    this.connection = { client, release };
  }
}
