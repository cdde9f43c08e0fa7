import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Network, ReachabilityState } from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import {
  SUBSCRIPTION_REACHABILITY,
  type SubscriptionReachabilityReader,
} from '../subscriptions/subscription-reachability';
import type { FeedSighting } from '../subscriptions/subscriptions.repository';

/** A sighting of the client's network is written again after this long. */
const SIGHTING_REFRESH_MS = 10 * 60_000;

const ORDER: Record<ReachabilityState, number> = { works: 0, unknown: 1, blocked: 2 };

const NOWHERE: Network = { country: null, asn: null, asnName: null };

export interface ShapedServers<T> {
  /** Works from the requester's network first, then not measured; blocked ones left out. */
  servers: T[];
  /** The names of the servers left out. */
  blocked: string[];
  network: Network;
}

/**
 * A feed as its requester's network sees it (docs/reachability.md#feeds): the servers that work
 * from there first (so the apps' auto-best group and first entry are reachable ones), servers
 * known blocked there left out, unless every server is (an empty feed helps nobody: the
 * replacement job is then on its way). Each fetch also records where the client is (the
 * sighting, written by the feed's read), the network their blocked servers are replaced for.
 */
@Injectable()
export class FeedReachability {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional()
    @Inject(SUBSCRIPTION_REACHABILITY)
    private readonly reachability: SubscriptionReachabilityReader | null = null,
  ) {}

  /** The requester's network (nowhere without an address or a reachability reader). */
  networkOf(address: string | null): Network {
    return address && this.reachability ? this.reachability.networkOf(address) : NOWHERE;
  }

  /** What an active subscription's feed fetched from `network` records (null: nothing). */
  sighting(network: Network): FeedSighting | null {
    if (!network.country || !this.reachability) return null;
    const now = this.clock.now();
    return {
      country: network.country,
      asn: network.asn ?? 0,
      now,
      refreshBefore: new Date(now.getTime() - SIGHTING_REFRESH_MS),
    };
  }

  /** The states of these servers from `network` (none without a country or a reader). */
  async statesFrom(
    serverIds: readonly string[],
    network: Network,
  ): Promise<ReadonlyMap<string, ReachabilityState>> {
    if (!network.country || !this.reachability) return new Map();
    return this.reachability.statesFrom(serverIds, network);
  }

  /** Whether `network` is one the feed shapes for (placed, with a reader). */
  shapes(network: Network): boolean {
    return Boolean(network.country && this.reachability);
  }

  shape<T extends { id: string; name: string }>(
    servers: readonly T[],
    network: Network,
    states: ReadonlyMap<string, ReachabilityState>,
  ): ShapedServers<T> {
    if (!this.shapes(network)) return { servers: [...servers], blocked: [], network };
    const stateOf = (s: T) => states.get(s.id) ?? 'unknown';
    const ordered = servers
      .map((server, index) => ({ server, index }))
      .sort((a, b) => ORDER[stateOf(a.server)] - ORDER[stateOf(b.server)] || a.index - b.index)
      .map(({ server }) => server);
    const kept = ordered.filter((s) => stateOf(s) !== 'blocked');
    if (kept.length === 0) return { servers: ordered, blocked: [], network };
    return {
      servers: kept,
      blocked: ordered.filter((s) => stateOf(s) === 'blocked').map((s) => s.name),
      network,
    };
  }
}
