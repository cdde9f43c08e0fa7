import { EventEmitter } from 'node:events';
import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { PgListener } from '../common/pg-listener';
import { ClientSetsRepository } from './client-sets.repository';

/**
 * Tells this replica's open WatchClients streams that a server's allowed set changed, whichever
 * replica changed it: PostgreSQL LISTEN/NOTIFY on one held connection, no in-process state that
 * replicas could disagree on (the set itself is always re-read from the database).
 */
@Injectable()
export class ClientSetNotifier implements OnModuleInit, OnApplicationShutdown {
  private readonly events = new EventEmitter().setMaxListeners(0);
  private readonly listener: PgListener;

  constructor(repository: ClientSetsRepository) {
    this.listener = repository.listen(
      {
        notified: (serverId) => this.events.emit(serverId, false),
        // Every stream re-reads and re-sends its set after a reconnect: a notification may have
        // been missed while LISTEN was down.
        reconnected: () => this.events.eventNames().forEach((name) => this.events.emit(name, true)),
      },
      new Logger('ClientSetNotifier'),
    );
  }

  onModuleInit(): Promise<void> {
    return this.listener.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.listener.stop();
  }

  /** Whether LISTEN is in place (readiness). */
  get listening(): boolean {
    return this.listener.connected;
  }

  /**
   * Calls `listener` whenever the set of `serverId` may have changed; `resync` is true after
   * LISTEN came back from an outage (send the current set even if it seems unchanged).
   * Returns the unsubscribe.
   */
  subscribe(serverId: string, listener: (resync: boolean) => void): () => void {
    this.events.on(serverId, listener);
    return () => this.events.off(serverId, listener);
  }
}
