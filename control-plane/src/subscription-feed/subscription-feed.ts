import { buildVlessLink, type PauseReason, SUBSCRIPTION_FEED_PAGES } from '@scn/proto';
import type { SubscriptionState } from '../subscriptions/entities/subscription.entity';

/** What the feed of a subscription serves: its links, or placeholders that say why not. */
export type FeedState = 'active' | 'paused' | 'unpaid' | 'expired';

/**
 * The target of every placeholder entry. 0.0.0.0 is "this host, no address": Linux, Android,
 * macOS and iOS send a connection to it to the device's own loopback (port 1, tcpmux, is closed
 * there, so it is refused at once) and Windows refuses it outright; no packet leaves the device.
 * A documentation address (192.0.2.1, RFC 5737) would instead send a SYN to the network and hang
 * until the app's timeout. Remnawave's placeholders use the same 0.0.0.0:1. The nil UUID is
 * never provisioned on a node (subscriptions get random v4 UUIDs).
 */
export const PLACEHOLDER_TARGET = {
  uuid: '00000000-0000-0000-0000-000000000000',
  host: '0.0.0.0',
  port: 1,
} as const;

export interface FeedPages {
  /** Where the client activates, renews or tops up (the portal's client dashboard). */
  dashboardUrl: string;
  supportUrl: string;
}

export function feedPages(publicUrl: string): FeedPages {
  return {
    dashboardUrl: `${publicUrl}${SUBSCRIPTION_FEED_PAGES.dashboard}`,
    supportUrl: `${publicUrl}${SUBSCRIPTION_FEED_PAGES.support}`,
  };
}

/** A paused subscription is unpaid when a payment it needed failed (docs/product/states.md#subscription-and-reliability-states automatic pause). */
export function feedState(record: {
  status: SubscriptionState;
  pauseReason: PauseReason | null;
}): FeedState {
  if (record.status === 'active') return 'active';
  if (record.status === 'paused') return record.pauseReason === 'user' ? 'paused' : 'unpaid';
  return 'expired';
}

const HEADLINES: Record<Exclude<FeedState, 'active'>, (dashboardUrl: string) => string> = {
  paused: (url) => `Paused: activate at ${url}`,
  unpaid: (url) => `Unpaid: top up and activate at ${url}`,
  expired: (url) => `Expired: renew at ${url}`,
};

/**
 * What a subscription app shows instead of the servers of a subscription that is not running:
 * entries whose names say what happened and where to fix it, pointing nowhere. They replace the
 * real links, which the nodes refuse anyway and which would hand the subscription's uuid to
 * anyone holding the URL until it runs again.
 */
export function placeholderLinks(state: Exclude<FeedState, 'active'>, pages: FeedPages): string[] {
  return [HEADLINES[state](pages.dashboardUrl), `Help: ${pages.supportUrl}`].map((name) =>
    buildVlessLink({
      ...PLACEHOLDER_TARGET,
      params: { encryption: 'none', security: 'none', type: 'tcp' },
      name,
    }),
  );
}
