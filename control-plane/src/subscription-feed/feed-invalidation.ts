import {
  Inject,
  Injectable,
  Logger,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { PgListener } from '../common/pg-listener';
import { PgChannels } from '../database/pg-channels';
import { FeedMemory } from './feed-memory';

/** The channel feed_changed.sql notifies on. */
export const FEED_CHANNEL = 'scn_feed';

/**
 * This replica's memory of feeds, and the LISTEN that keeps it true (docs/architecture.md
 * #subscription-feed): every commit that changes what a feed shows notifies scn_feed (triggers),
 * on whichever replica or job it ran. While LISTEN is down nothing is remembered nor answered
 * from memory (`memory` is null: every fetch reads the database), and everything is forgotten
 * when it is lost and when it is back, since notifications may have been missed meanwhile.
 */
@Injectable()
export class FeedInvalidation implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('FeedInvalidation');
  private readonly listener: PgListener;
  private readonly kept: FeedMemory;
  private wasConnected = false;

  constructor(channels: PgChannels, @Inject(APP_CONFIG) config: AppConfig) {
    this.kept = new FeedMemory(config.feedCache);
    this.listener = channels.listener(
      FEED_CHANNEL,
      {
        notified: (payload) => this.kept.notified(payload),
        reconnected: () => this.kept.clear(),
      },
      this.logger,
    );
  }

  /** The memory while LISTEN holds (null otherwise: read the database). */
  get memory(): FeedMemory | null {
    const connected = this.listener.connected;
    if (connected !== this.wasConnected) {
      this.wasConnected = connected;
      this.kept.clear();
    }
    return connected ? this.kept : null;
  }

  onModuleInit(): Promise<void> {
    return this.listener.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.listener.stop();
  }
}
