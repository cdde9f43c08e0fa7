import type { Logger } from '@nestjs/common';
import type { Notification, PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

export interface PgListenerHandlers {
  /** A notification on the channel (with a payload). */
  notified(payload: string): void;
  /** LISTEN is back after a lost connection: notifications sent meanwhile were missed. */
  reconnected(): void;
}

/**
 * LISTEN on one PostgreSQL channel over one held connection, reconnecting a second after the
 * connection is lost. What replicas tell each other goes through here; nothing is kept.
 */
export class PgListener {
  private connection: { client: PoolClient; release: () => void } | null = null;
  private closing = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly channel: string,
    private readonly handlers: PgListenerHandlers,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    const driver = this.dataSource.driver as PostgresDriver;
    const [client, release] = (await driver.obtainMasterConnection()) as [PoolClient, () => void];
    client.on('notification', (message: Notification) => {
      if (message.channel === this.channel && message.payload)
        this.handlers.notified(message.payload);
    });
    client.on('error', (error: Error) => {
      if (this.closing) return;
      this.logger.error({ err: error }, `LISTEN ${this.channel} connection lost; reconnecting`);
      this.connection = null;
      release();
      setTimeout(() => {
        this.start()
          .then(() => this.handlers.reconnected())
          .catch((err: unknown) =>
            this.logger.error({ err }, `LISTEN ${this.channel} reconnect failed`),
          );
      }, 1000);
    });
    await client.query(`LISTEN ${this.channel}`);
    this.connection = { client, release };
  }

  /** Gives the connection back; call it before TypeORM's pool ends (the pool waits for it). */
  async stop(): Promise<void> {
    this.closing = true;
    const connection = this.connection;
    this.connection = null;
    if (connection) {
      await connection.client.query(`UNLISTEN ${this.channel}`).catch(() => undefined);
      connection.release();
    }
  }
}
