import type { WalletData } from '@scn/proto';
import { queryOptions } from '@tanstack/react-query';
import { CLIENT_WALLET_RETRY, NODE_WALLET_RETRY, loadWalletWithRetry } from './wallet-loader';

/** The wallet kinds (the api's `WalletType`, restated so this file needs no api client). */
export type WalletKind = 'client' | 'node';

export const walletQueryKey = (type: WalletKind, ownerUuid: string) =>
  ['wallet', type, ownerUuid] as const;

/** What a wallet query calls (the api, or a test's fakes). */
export interface WalletCalls {
  fetch(type: WalletKind, ownerUuid: string, signal?: AbortSignal): Promise<WalletData>;
  create(type: WalletKind): Promise<unknown>;
  sleep(ms: number): Promise<void>;
}

/**
 * A wallet as a query. The first read of an account retries and creates the wallet as docs/product/states.md#subscription-and-reliability-states
 * says (its failure is the spec's error, a WalletLoadError); a later read (a realtime event,
 * after a purchase) is one plain read, and when it fails the wallet already shown stays.
 */
export function walletQuery(type: WalletKind, ownerUuid: string, calls: WalletCalls) {
  return queryOptions({
    queryKey: walletQueryKey(type, ownerUuid),
    queryFn: ({ client, queryKey, signal }): Promise<WalletData> => {
      const fetch = () => calls.fetch(type, ownerUuid, signal);
      if (client.getQueryData(queryKey) !== undefined) return fetch();
      return loadWalletWithRetry(
        {
          fetch,
          create: () => calls.create(type),
          sleep: calls.sleep,
          isCancelled: () => signal.aborted,
        },
        type === 'client' ? CLIENT_WALLET_RETRY : NODE_WALLET_RETRY,
      );
    },
  });
}
