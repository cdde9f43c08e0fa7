/**
 * Which of a page's servers the client already subscribes to (the card's "Already Subscribed",
 * docs/product/screens.md#the-shell-and-the-market-screens). The subscriptions domain answers it; the market only declares what it needs, so
 * the two modules do not import each other (subscriptions already imports the market).
 */
export const SUBSCRIBED_SERVERS = Symbol('SUBSCRIBED_SERVERS');

export interface SubscribedServersReader {
  /** The ids among `serverIds` on which `ownerUuid` has an active or paused subscription. */
  subscribedAmong(ownerUuid: string, serverIds: readonly string[]): Promise<ReadonlySet<string>>;
}
