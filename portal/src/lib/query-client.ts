import { QueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * The portal's one cache of server state (STYLE.md "Server state in the portal"): queries own
 * loading, caching, refetching and dropping superseded answers; valtio stores keep client state
 * only. One instance, so a realtime event or an action outside React can invalidate what it
 * changed. The defaults keep the portal's own rules: a failed read is shown (or, when something
 * is already shown, kept) at once instead of retried behind the reader's back, and a page reads
 * again when it is opened or told to, not on every focus of a slow phone's tab.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
    mutations: { retry: false },
  },
});

/**
 * Reads `queryKey` again wherever it is shown. A read already in flight is dropped for the new
 * one, even a first read (the library would otherwise join it): what it answers may predate the
 * change that asked for the new read (a credit announced, a payment made).
 */
export async function readAgain(queryKey: QueryKey, client: QueryClient = queryClient) {
  await client.cancelQueries({ queryKey });
  await client.invalidateQueries({ queryKey });
}
