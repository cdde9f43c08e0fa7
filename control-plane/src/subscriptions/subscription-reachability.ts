import type { VisitorReachabilityReader } from '../market/visitor-reachability';

/**
 * What subscriptions ask of reachability (docs/reachability.md): the feed places its requester
 * (`networkOf`) and orders the servers (`statesFrom`); replacements look for servers that work
 * from the client's network (`workingFrom`). The reachability domain answers it; subscriptions
 * only declare what they need, so the two modules do not import each other (as
 * SUBSCRIBED_SERVERS does for the market). The same reader the market declares.
 */
export const SUBSCRIPTION_REACHABILITY = Symbol('SUBSCRIPTION_REACHABILITY');

export type SubscriptionReachabilityReader = VisitorReachabilityReader;
