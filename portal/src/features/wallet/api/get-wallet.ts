import { WALLET_ROUTES, WALLET_MESSAGES, type WalletData, type WalletResponse } from '@scn/proto';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { readAgain } from '../../../lib/query-client';
import { type WalletLoadMessageKey, WalletLoadError } from '../wallet-loader';
import { type WalletCalls, walletQuery, walletQueryKey } from '../wallet-query';
import { createWallet } from './create-wallet';

export type WalletType = 'client' | 'node';

export interface WalletPage {
  /** Older transactions than this id (the last one shown). */
  before?: string;
  signal?: AbortSignal;
}

/**
 * GET /wallet/client/{uuid} or /wallet/node/{uuid} (docs/product/calls.md#market-and-account-calls: no-cache, with a cache-busting
 * timestamp). The server computes the balance; the portal shows it as given.
 */
export function getWallet(
  type: WalletType,
  ownerUuid: string,
  page: WalletPage = {},
): Promise<WalletResponse> {
  const path =
    type === 'client' ? WALLET_ROUTES.clientWallet(ownerUuid) : WALLET_ROUTES.nodeWallet(ownerUuid);
  const query = new URLSearchParams({ t: String(Date.now()) });
  if (page.before) query.set('before', page.before);
  return api.get<WalletResponse>(`${path}?${query.toString()}`, {
    signal: page.signal,
    fallbackMessage: WALLET_MESSAGES.fetchFailed,
  });
}

const apiCalls: WalletCalls = {
  fetch: async (type, ownerUuid, signal) => (await getWallet(type, ownerUuid, { signal })).data,
  create: (type) => createWallet(type),
  sleep: (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
};

/** The wallet query of `ownerUuid` over the api (wallet-query.ts holds its rules). */
export const walletQueryOptions = (type: WalletType, ownerUuid: string) =>
  walletQuery(type, ownerUuid, apiCalls);

/** A wallet as its panel shows it. */
export interface WalletView {
  status: 'loading' | 'ready' | 'error';
  data: WalletData | null;
  /** Why the first read failed, a catalogue key (`wallet:load.<key>`). */
  error: WalletLoadMessageKey | null;
  /** Reads again (Try Again). */
  reload: () => void;
}

/**
 * The wallet; `readOnMount` false for a part of the panel that appears later (the Transactions
 * tab), which shows what the panel read rather than reading again (and dropping older pages).
 */
export function useWallet(type: WalletType, ownerUuid: string, readOnMount = true): WalletView {
  const query = useQuery({ ...walletQueryOptions(type, ownerUuid), refetchOnMount: readOnMount });
  const { data, error, refetch } = query;
  return {
    status: data !== undefined ? 'ready' : query.isError ? 'error' : 'loading',
    data: data ?? null,
    error: error === null ? null : error instanceof WalletLoadError ? error.key : 'fetchFailed',
    reload: () => void refetch(),
  };
}

/** Reads the wallet again where it is shown (a credit, a payment, a stake moved). */
export function refreshWallet(type: WalletType, ownerUuid: string): Promise<void> {
  return readAgain(walletQueryKey(type, ownerUuid));
}

/** The transactions before `before` (the server pages them, newest first), added below. */
export function useOlderTransactions(type: WalletType, ownerUuid: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (before: string) => (await getWallet(type, ownerUuid, { before })).data,
    onSuccess: (page) =>
      client.setQueryData<WalletData>(walletQueryKey(type, ownerUuid), (shown) => {
        if (!shown) return shown;
        const known = new Set(shown.transactions.map((transaction) => transaction.id));
        const older = page.transactions.filter((entry) => !known.has(entry.id));
        return { ...shown, transactions: [...shown.transactions, ...older], hasMore: page.hasMore };
      }),
  });
}
