import type { SolanaConfig, WalletData } from '@scn/proto';
import { type Snapshot, proxy, useSnapshot } from 'valtio';
import { createWallet } from './api/create-wallet';
import { getWallet, type WalletType } from './api/get-wallet';
import { getSolanaConfig } from './api/solana';
import {
  CLIENT_WALLET_RETRY,
  NODE_WALLET_RETRY,
  type WalletLoadMessageKey,
  WalletLoadError,
  loadWalletWithRetry,
} from './wallet-loader';

export interface WalletSlot {
  /** The account whose wallet is held; another account starts from scratch. */
  ownerUuid: string | null;
  status: 'idle' | 'loading' | 'ready' | 'error';
  data: WalletData | null;
  /** Why the first load failed, a catalogue key (`wallet:load.<key>`). */
  error: WalletLoadMessageKey | null;
  refreshing: boolean;
  loadingMore: boolean;
}

/** A wallet as components see it (a read-only snapshot of the store). */
export type WalletView = Snapshot<WalletData>;

export interface WalletState {
  client: WalletSlot;
  node: WalletSlot;
  /** /api/solana/config (deposit address, quote, cluster, explorer, demo wallet). */
  solana: { status: 'idle' | 'loading' | 'ready' | 'error'; data: SolanaConfig | null };
}

const emptySlot = (): WalletSlot => ({
  ownerUuid: null,
  status: 'idle',
  data: null,
  error: null,
  refreshing: false,
  loadingMore: false,
});

export const walletStore = proxy<WalletState>({
  client: emptySlot(),
  node: emptySlot(),
  solana: { status: 'idle', data: null },
});

export function useWallet(type: WalletType) {
  return useSnapshot(walletStore)[type];
}

export function useSolanaConfig() {
  return useSnapshot(walletStore).solana;
}

const sleep = (ms: number) => new Promise<void>((resolve) => window.setTimeout(resolve, ms));
const generations: Record<WalletType, number> = { client: 0, node: 0 };

/**
 * Loads a wallet. The first load of an account retries and creates the wallet as spec 02 §4
 * says, showing the spec's error in place; a later refresh (realtime event, after a purchase)
 * keeps what is shown when it fails. Results of a superseded load are dropped.
 */
export async function loadWallet(type: WalletType, ownerUuid: string): Promise<void> {
  const slot = walletStore[type];
  if (slot.ownerUuid !== ownerUuid) Object.assign(slot, { ...emptySlot(), ownerUuid });
  generations[type] += 1;
  const mine = generations[type];
  const current = () => generations[type] === mine && slot.ownerUuid === ownerUuid;

  if (slot.status === 'ready') {
    slot.refreshing = true;
    try {
      const { data } = await getWallet(type, ownerUuid);
      if (current()) slot.data = data;
    } catch {
      // The shown balance stays; the next event or reload tries again.
    } finally {
      if (current()) slot.refreshing = false;
    }
    return;
  }

  Object.assign(slot, { status: 'loading', error: null });
  try {
    const { data } = await loadWalletWithRetry(
      {
        fetch: () => getWallet(type, ownerUuid),
        create: () => createWallet(type),
        sleep,
        isCancelled: () => !current(),
      },
      type === 'client' ? CLIENT_WALLET_RETRY : NODE_WALLET_RETRY,
    );
    if (current()) Object.assign(slot, { status: 'ready', data, error: null });
  } catch (error) {
    if (!current()) return;
    Object.assign(slot, {
      status: 'error',
      error: error instanceof WalletLoadError ? error.key : 'fetchFailed',
    });
  }
}

/** Transactions older than the last one shown (the server pages them, newest first). */
export async function loadMoreTransactions(type: WalletType, ownerUuid: string): Promise<void> {
  const slot = walletStore[type];
  const last = slot.data?.transactions.at(-1);
  if (!slot.data || !last || slot.loadingMore || slot.ownerUuid !== ownerUuid) return;
  slot.loadingMore = true;
  try {
    const { data } = await getWallet(type, ownerUuid, { before: last.id });
    if (slot.ownerUuid !== ownerUuid || !slot.data) return;
    const known = new Set(slot.data.transactions.map((transaction) => transaction.id));
    slot.data.transactions.push(...data.transactions.filter((entry) => !known.has(entry.id)));
    slot.data.hasMore = data.hasMore;
  } catch {
    // The button stays; the user may try again.
  } finally {
    slot.loadingMore = false;
  }
}

/**
 * /api/solana/config, loaded once (spec 01 §8: its failure is 'Failed to initialize payment
 * system'); a call after a failure tries again.
 */
export async function loadSolanaConfig(): Promise<void> {
  const solana = walletStore.solana;
  if (solana.status === 'loading' || solana.status === 'ready') return;
  solana.status = 'loading';
  try {
    Object.assign(solana, { status: 'ready', data: await getSolanaConfig() });
  } catch {
    solana.status = 'error';
  }
}
