import { NODES_ROUTES, type NodeServer, type NodeServersResponse } from '@scn/proto';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { messageOf } from '../../../lib/error-message';
import { queryClient } from '../../../lib/query-client';
import { REFRESH_INTERVAL_MS, announceReliabilityChanges, pushToast, uniqueById } from '../store';

export function getServers(ownerUuid: string, signal?: AbortSignal): Promise<NodeServersResponse> {
  return api.get<NodeServersResponse>(NODES_ROUTES.servers(ownerUuid), {
    signal,
    fallbackMessage: 'Failed to load servers',
  });
}

export const serversQueryKey = (ownerUuid: string) => ['node-servers', ownerUuid] as const;

/**
 * The operator's servers. A failed first read shows its error in place; a failed later read keeps
 * the list and says so in a toast (docs/product/messages.md#dashboard-messages); a read that moves a server's reliability by 10
 * points or more says that in a toast (docs/product/states.md#subscription-and-reliability-states).
 */
export function serversQueryOptions(ownerUuid: string) {
  return queryOptions({
    queryKey: serversQueryKey(ownerUuid),
    queryFn: async ({ client, queryKey, signal }): Promise<NodeServer[]> => {
      const before = client.getQueryData<NodeServer[]>(queryKey);
      try {
        const next = uniqueById((await getServers(ownerUuid, signal)).servers);
        if (before) announceReliabilityChanges(before, next);
        return next;
      } catch (error) {
        if (before && !signal.aborted) {
          pushToast('error', { kind: 'refreshFailed', error: messageOf(error) });
        }
        throw error;
      }
    },
  });
}

export interface ServersView {
  servers: NodeServer[];
  status: 'loading' | 'ready' | 'error';
  /** The server's message when the first read failed; null: a failure without one. */
  error: string | null;
  refreshing: boolean;
  /** When the list shown was read (relative times are measured from it); null before. */
  lastRefreshedAt: number | null;
  /** Reads again; a read already running is joined (docs/product/states.md#subscription-and-reliability-states). */
  refresh: () => void;
}

/**
 * The servers; `follow` reads them again every REFRESH_INTERVAL_MS while shown (docs/product/constants.md#billing-and-the-economy),
 * which one reader (the list) asks for.
 */
export function useServers(ownerUuid: string, follow = false): ServersView {
  const read = useQuery({
    ...serversQueryOptions(ownerUuid),
    refetchInterval: follow ? REFRESH_INTERVAL_MS : false,
    refetchIntervalInBackground: true,
  });
  const { data, error, refetch } = read;
  return {
    servers: data ?? [],
    status: data ? 'ready' : read.isError ? 'error' : 'loading',
    error: data ? null : messageOf(error),
    refreshing: read.isFetching,
    lastRefreshedAt: data ? read.dataUpdatedAt : null,
    refresh: () => void refetch({ cancelRefetch: false }),
  };
}

/** Reads the servers again where they are shown, joining a read already running (docs/product/states.md#subscription-and-reliability-states). */
export function refreshServers(ownerUuid: string): Promise<void> {
  return queryClient.invalidateQueries(
    { queryKey: serversQueryKey(ownerUuid) },
    { cancelRefetch: false },
  );
}

/** Shows a change the server confirmed at once (the realtime event reads the list again too). */
export function updateListedServers(
  ownerUuid: string,
  change: (servers: NodeServer[]) => NodeServer[],
): void {
  queryClient.setQueryData<NodeServer[]>(
    serversQueryKey(ownerUuid),
    (servers) => servers && change(servers),
  );
}

/** The servers the list has read (this reads nothing itself); [] until then or without an owner. */
export function useListedServers(ownerUuid: string | null): NodeServer[] {
  return useQuery({ ...serversQueryOptions(ownerUuid ?? ''), enabled: false }).data ?? NO_SERVERS;
}

const NO_SERVERS: NodeServer[] = [];
