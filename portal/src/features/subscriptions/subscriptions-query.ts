import type { Subscription } from '@scn/proto';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { messageOf } from '../../lib/error-message';
import { queryClient, readAgain } from '../../lib/query-client';
import { getActiveSubscriptions } from './api/get-active-subscriptions';
import { getPausedSubscriptions } from './api/get-paused-subscriptions';

export interface SubscriptionLists {
  active: Subscription[];
  paused: Subscription[];
}

export const subscriptionsQueryKey = (ownerUuid: string) => ['subscriptions', ownerUuid] as const;

/** The active and paused lists, read together (docs/product/calls.md#dashboard-calls). */
export function subscriptionsQueryOptions(ownerUuid: string) {
  return queryOptions({
    queryKey: subscriptionsQueryKey(ownerUuid),
    queryFn: async ({ signal }): Promise<SubscriptionLists> => {
      const [active, paused] = await Promise.all([
        getActiveSubscriptions(ownerUuid, signal),
        getPausedSubscriptions(ownerUuid, signal),
      ]);
      return { active: active.subscriptions, paused: paused.subscriptions };
    },
  });
}

const EMPTY: SubscriptionLists = { active: [], paused: [] };

/**
 * The lists as the page shows them. docs/product/messages.md#market-and-account-messages: a failed read shows empty lists with the error
 * and Try Again, even after an earlier read succeeded. `fresh` says the lists were read since
 * the page was opened (lists from an earlier visit may predate a new subscription).
 */
export function useSubscriptionLists(ownerUuid: string) {
  const [openedAt] = useState(() => Date.now());
  const read = useQuery(subscriptionsQueryOptions(ownerUuid));
  const lists = read.isError ? EMPTY : (read.data ?? EMPTY);
  return {
    ...lists,
    status: read.isError ? 'error' : read.data ? 'ready' : 'loading',
    error: read.isError ? messageOf(read.error, 'Unknown error') : null,
    fresh: read.data !== undefined && !read.isError && read.dataUpdatedAt >= openedAt,
    reload: () => void read.refetch(),
  } as const;
}

/** Reads the lists again where they are shown (an action, a realtime event). */
export function refreshSubscriptions(ownerUuid: string): Promise<void> {
  return readAgain(subscriptionsQueryKey(ownerUuid));
}

/** Drops a deleted subscription from the lists at once. */
export function dropListedSubscription(ownerUuid: string, subscriptionId: string): void {
  queryClient.setQueryData<SubscriptionLists>(
    subscriptionsQueryKey(ownerUuid),
    (lists) =>
      lists && {
        active: lists.active.filter((item) => item.id !== subscriptionId),
        paused: lists.paused.filter((item) => item.id !== subscriptionId),
      },
  );
}
