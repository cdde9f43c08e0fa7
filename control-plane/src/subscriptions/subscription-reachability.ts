import type { Network, ReachabilityState } from '@scn/proto';

/**
 * What the replacement of blocked servers asks of reachability (docs/reachability.md#replacements).
 * The reachability domain answers it; the subscriptions domain only declares what it needs, so
 * the two modules do not import each other (as SUBSCRIBED_SERVERS does for the market).
 */
export const SUBSCRIPTION_REACHABILITY = Symbol('SUBSCRIPTION_REACHABILITY');

export interface SubscriptionReachabilityReader {
  /** Where an address is (GeoIP): the feed's requester. */
  networkOf(address: string): Network;
  /** Each server's state as seen from `network` (servers without an estimate may be absent). */
  statesFrom(
    serverIds: readonly string[],
    network: Network,
  ): Promise<ReadonlyMap<string, ReachabilityState>>;
  /** Servers measured working from exactly that network, best first. */
  workingFrom(network: Network): Promise<readonly string[]>;
}
