import { EventEmitter } from 'node:events';
import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Notification, PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { CLIENT_SET_CHANNEL } from './nodes.repository';

/**
 * Tells this replica's open WatchClients streams that a server's allowed set changed, whichever
 * replica changed it: PostgreSQL LISTEN/NOTIFY on one held connection, no in-process state that
 * replicas could disagree on (the set itself is always re-read from the database).
 */
@Injectable()
export class ClientSetNotifier implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ClientSetNotifier');
  private readonly events = new EventEmitter().setMaxListeners(0);
  private connection: { client: PoolClient; release: () => void } | null = null;
  private closing = false;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    await this.listen();
  }

  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    const connection = this.connection;
    this.connection = null;
    if (connection) {
      await connection.client.query(`UNLISTEN ${CLIENT_SET_CHANNEL}`).catch(() => undefined);
      connection.release();
    }
  }

  /** Calls `listener` whenever the set of `serverId` may have changed; returns the unsubscribe. */
  subscribe(serverId: string, listener: () => void): () => void {
    this.events.on(serverId, listener);
    return () => this.events.off(serverId, listener);
  }

  private async listen(): Promise<void> {
    const driver = this.dataSource.driver as PostgresDriver;
    const [client, release] = (await driver.obtainMasterConnection()) as [PoolClient, () => void];
    client.on('notification', (message: Notification) => {
      if (message.channel === CLIENT_SET_CHANNEL && message.payload)
        this.events.emit(message.payload);
    });
    client.on('error', (error: Error) => {
      if (this.closing) return;
      this.logger.error({ err: error }, 'LISTEN connection lost; reconnecting');
      this.connection = null;
      release();
      // Every stream re-reads its set after a reconnect: a notification may have been missed.
      setTimeout(() => {
        this.listen()
          .then(() => this.events.eventNames().forEach((name) => this.events.emit(name)))
          .catch((err: unknown) => this.logger.error({ err }, 'LISTEN reconnect failed'));
      }, 1000);
    });
    await client.query(`LISTEN ${CLIENT_SET_CHANNEL}`);
    this.connection = { client, release };
  }
}
