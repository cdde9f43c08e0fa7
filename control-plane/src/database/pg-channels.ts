import { Injectable, type Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { PgListener, type PgListenerHandlers, type PgListenerOptions } from '../common/pg-listener';

/**
 * PostgreSQL LISTEN/NOTIFY channels between replicas, for the owners of a channel (realtime
 * events): they get a listener and a notify without holding the data source themselves.
 */
@Injectable()
export class PgChannels {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A LISTEN on `channel` over its own held connection; the caller starts and stops it. */
  listener(
    channel: string,
    handlers: PgListenerHandlers,
    logger: Logger,
    options: Partial<PgListenerOptions> = {},
  ): PgListener {
    return new PgListener(this.dataSource, channel, handlers, logger, options);
  }

  /** Sends `payload` to every listener of `channel`, this replica's included. */
  async notify(channel: string, payload: string): Promise<void> {
    await this.dataSource.query(`SELECT pg_notify($1, $2)`, [channel, payload]);
  }
}
