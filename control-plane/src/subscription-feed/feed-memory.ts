import type { ReachabilityState } from '@scn/proto';
import type { FeedSnapshot, SubscribableServer } from '../subscriptions/subscriptions.repository';
import { LruCache } from './feed-cache';

/**
 * How long a server list as seen from a network is kept at most: an estimate turns stale by time
 * alone (docs/reachability.md), which no commit announces.
 */
export const NETWORK_STATES_TTL_MS = 60_000;

export interface FeedMemoryLimits {
  /** Subscriptions (by URL hash) whose snapshot is kept. */
  subscriptions: number;
  /** Reachability states kept, one per subscription's servers and network. */
  networks: number;
}

/** What a feed read from the database, kept until a commit changes it. */
export interface RememberedFeed {
  snapshot: FeedSnapshot;
  /** The servers the snapshot's stamp names, in order (a change of any drops the entry). */
  servers: readonly SubscribableServer[];
  /** When the paid time ends (epoch ms): past it the database says what comes next. */
  validUntil: number;
}

interface RememberedStates {
  states: ReadonlyMap<string, ReachabilityState>;
  until: number;
}

/**
 * What the feed reads from the database, kept in memory so a fetch needs no round trip
 * (docs/architecture.md#subscription-feed): the subscription's snapshot by URL hash, and the
 * states of its servers from a requester's network. Every replica is told of each commit that
 * changes either (the triggers of feed_changed.sql, NOTIFY scn_feed, FeedInvalidation) and drops
 * what it names. A read that was under way while a notification arrived is not kept (`epoch`):
 * it may have seen the database from before that commit.
 */
export class FeedMemory {
  private readonly feeds: LruCache<RememberedFeed>;
  private readonly states: LruCache<RememberedStates>;
  /** Subscription id -> the URL hash its snapshot is kept under. */
  private readonly hashOf = new Map<string, string>();
  /** Moves at every notification and every clear. */
  private generation = 0;

  constructor(limits: FeedMemoryLimits) {
    this.feeds = new LruCache<RememberedFeed>(limits.subscriptions, undefined, (hash, feed) => {
      const id = feed.snapshot.record.id;
      if (this.hashOf.get(id) === hash) this.hashOf.delete(id);
    });
    this.states = new LruCache<RememberedStates>(limits.networks);
  }

  /** Read before a database read, handed back to `remember`/`rememberStates`. */
  get epoch(): number {
    return this.generation;
  }

  feed(hash: string, now: number): RememberedFeed | undefined {
    const feed = this.feeds.get(hash);
    if (feed && now >= feed.validUntil) {
      this.feeds.delete(hash);
      return undefined;
    }
    return feed;
  }

  remember(hash: string, feed: RememberedFeed, epoch: number): void {
    if (epoch !== this.generation) return;
    const id = feed.snapshot.record.id;
    const previous = this.hashOf.get(id);
    if (previous !== undefined && previous !== hash) this.feeds.delete(previous);
    this.feeds.set(hash, feed);
    this.hashOf.set(id, hash);
  }

  networkStates(key: string, now: number): ReadonlyMap<string, ReachabilityState> | undefined {
    const held = this.states.get(key);
    if (held && now >= held.until) {
      this.states.delete(key);
      return undefined;
    }
    return held?.states;
  }

  rememberStates(
    key: string,
    states: ReadonlyMap<string, ReachabilityState>,
    now: number,
    epoch: number,
  ): void {
    if (epoch !== this.generation) return;
    this.states.set(key, { states, until: now + NETWORK_STATES_TTL_MS });
  }

  /** A notification on scn_feed (feed_changed.sql lists the payloads). */
  notified(payload: string): void {
    this.generation += 1;
    if (payload.startsWith('s:')) {
      for (const id of payload.slice(2).split(',')) {
        const hash = this.hashOf.get(id);
        if (hash !== undefined) this.feeds.delete(hash);
      }
    } else if (payload.startsWith('v:')) {
      // A server's link columns or its plan: the feeds holding it, and every network's states
      // (estimates belong to a plan). Rare: an operator's edit, a core restart, a new plan.
      const server = payload.slice(2);
      for (const [hash, feed] of this.feeds.held()) {
        if (feed.servers.some((s) => s.id === server)) this.feeds.delete(hash);
      }
      this.states.clear();
    } else if (payload === 'r') {
      this.states.clear();
    } else if (payload === '*') {
      this.clear();
    }
  }

  /** Forgets everything (LISTEN lost or back: notifications may have been missed). */
  clear(): void {
    this.generation += 1;
    this.feeds.clear();
    this.states.clear();
    this.hashOf.clear();
  }

  get sizes(): { feeds: number; networks: number } {
    return { feeds: this.feeds.size, networks: this.states.size };
  }
}
