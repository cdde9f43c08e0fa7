import type { Network, ReachabilityState } from '@scn/proto';

/**
 * Whether servers work from a visitor's own country and network (docs/reachability.md): the
 * reachability domain answers it; the market only declares what it needs, so the two modules do
 * not import each other (reachability writes the market order's penalty through MarketRefresh).
 */
export const VISITOR_REACHABILITY = Symbol('VISITOR_REACHABILITY');

export interface VisitorReachabilityReader {
  /** Where an address is (GeoIP). */
  networkOf(address: string): Network;
  /** Each server's state from that network (absent: 'unknown'). */
  statesFrom(
    serverIds: readonly string[],
    network: Network,
  ): Promise<ReadonlyMap<string, ReachabilityState>>;
  /** Servers measured working from that network (for the "works from my network" filter). */
  workingFrom(network: Network): Promise<readonly string[]>;
}
