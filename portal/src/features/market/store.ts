import type {
  MarketServer,
  MarketStats,
  Network,
  ProcessingServersResponse,
  ReachabilityState,
} from '@scn/proto';
import { proxy, useSnapshot } from 'valtio';
import { getCountries } from './api/get-countries';
import { getProcessingServers } from './api/get-processing-servers';
import { getServers } from './api/get-servers';
import { getStats } from './api/get-stats';
import { markServerProcessing } from './api/mark-server-processing';
import { type MarketFilters, serializeFilters, serversQuery } from './market-query';
import { type MarketViewer, canToggleSelection, needsCooldown } from './market-rules';
import { messageOf } from '../../lib/error-message';

/** What the selection keeps of a server: enough to price and name it on any page. */
export interface SelectedServer {
  id: string;
  name: string;
  countryCode: string | null;
  priceMicro: string;
  isAdminServer: boolean;
  /** From the visitor's network when it was picked: a blocked one is warned of before paying. */
  reachability: ReachabilityState;
}

export interface MarketState {
  servers: MarketServer[];
  totalPages: number;
  total: number;
  /** A search found more than MARKET_SEARCH_COUNT_CAP servers: `total` is the cap. */
  totalCapped: boolean;
  /** 'loading' shows the spinner: the first load and every change of filters. */
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  /** The filters (as a query string) of the list on screen. */
  shownQuery: string | null;
  /** The visitor's country and network, which each server's `reachability` is measured from. */
  network: Network | null;
  stats: MarketStats | null;
  countries: string[];
  /** The account whose selection and cooldowns are held; another account starts afresh. */
  viewerUuid: string | null;
  /** Selected servers by id, in the order they were picked. */
  selected: Record<string, SelectedServer>;
  /** docs/product/records.md#market-and-wallet-records Processing: server id -> seconds left of its connect cooldown. */
  processing: Record<string, number>;
  /** Why the last selection did not take (e.g. the server became unavailable). */
  selectionError: string | null;
}

export const marketStore = proxy<MarketState>({
  servers: [],
  totalPages: 1,
  total: 0,
  totalCapped: false,
  status: 'idle',
  error: null,
  shownQuery: null,
  network: null,
  stats: null,
  countries: [],
  viewerUuid: null,
  selected: {},
  processing: {},
  selectionError: null,
});

export function useMarket() {
  return useSnapshot(marketStore);
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

let listController: AbortController | null = null;

/**
 * Loads the page of the market for `filters`. A new call cancels the one in flight, so a slow
 * answer for old filters never replaces a newer one. `silent` (realtime refresh, after a
 * purchase) keeps the cards on screen instead of the spinner.
 */
export async function loadServers(filters: MarketFilters, silent = false): Promise<void> {
  listController?.abort();
  const controller = new AbortController();
  listController = controller;
  const query = serializeFilters(filters);
  if (!silent || marketStore.shownQuery !== query || marketStore.status !== 'ready') {
    marketStore.status = 'loading';
  }
  try {
    const response = await getServers(serversQuery(filters), controller.signal);
    if (controller.signal.aborted) return;
    Object.assign(marketStore, {
      servers: response.servers,
      totalPages: Math.max(1, response.totalPages),
      total: response.total,
      // A control plane from before the capped count sends none: its total is exact.
      totalCapped: response.totalCapped ?? false,
      status: 'ready',
      error: null,
      shownQuery: query,
      // A control plane from before reachability sends none: nothing is named then.
      network: response.network ?? null,
    });
  } catch (error) {
    if (isAbort(error) || controller.signal.aborted) return;
    marketStore.status = 'error';
    marketStore.error = messageOf(error, 'Failed to load servers');
  } finally {
    if (listController === controller) listController = null;
  }
}

/** docs/product/messages.md#market-and-account-messages: stats errors are only logged; the tiles keep their last values. */
export async function loadStats(): Promise<void> {
  try {
    marketStore.stats = (await getStats()).stats;
  } catch (error) {
    console.warn('Failed to load server statistics', error);
  }
}

/** The Country filter's list; on failure it offers All Countries only (docs/product/messages.md#market-and-account-messages: logged). */
export async function loadCountries(): Promise<void> {
  try {
    marketStore.countries = (await getCountries()).countries;
  } catch (error) {
    console.warn('Failed to load countries', error);
  }
}

/**
 * The viewer changed (sign-in, sign-out, another account): a selection or cooldown belongs to
 * the account that made it.
 */
export function setViewer(viewer: MarketViewer | null): void {
  const uuid = viewer?.userType === 'client' ? viewer.uuid : null;
  if (marketStore.viewerUuid === uuid) return;
  Object.assign(marketStore, {
    viewerUuid: uuid,
    selected: {},
    processing: {},
    selectionError: null,
  });
}

function applyProcessing(
  response: Pick<ProcessingServersResponse, 'processingDetails' | 'processingServers'>,
) {
  const next: Record<string, number> = {};
  for (const id of response.processingServers) {
    next[id] = response.processingDetails[id]?.remainingSeconds ?? 0;
  }
  marketStore.processing = next;
}

/**
 * docs/product/states.md#market-and-account-states "Connect cooldown": the servers in their cooldown for this client. Polled every
 * second while any is pending; docs/product/messages.md#market-and-account-messages: a failure is kept as the message, the list stays.
 */
export async function refreshProcessing(): Promise<void> {
  const viewerUuid = marketStore.viewerUuid;
  if (!viewerUuid) return;
  try {
    const response = await getProcessingServers();
    if (marketStore.viewerUuid !== viewerUuid) return;
    applyProcessing(response);
  } catch (error) {
    marketStore.selectionError = messageOf(error, 'Failed to load processing servers');
  }
}

function selectedOf(server: MarketServer): SelectedServer {
  return {
    id: server.id,
    name: server.name,
    countryCode: server.countryCode,
    priceMicro: server.priceMicro,
    isAdminServer: server.isAdminServer,
    reachability: server.reachability ?? 'unknown',
  };
}

/**
 * docs/product/screens.md#the-shell-and-the-market-screens "Clicking a card toggles its selection" within the rules of market-rules.ts. Picking
 * a non-premium server starts its cooldown on the server (docs/product/states.md#market-and-account-states); if the server refuses
 * (e.g. it just became unavailable), the pick is undone and the reason shown.
 */
export async function toggleSelection(server: MarketServer, viewer: MarketViewer | null) {
  const state = {
    selected: server.id in marketStore.selected,
    processingSeconds: marketStore.processing[server.id],
  };
  if (!viewer || !canToggleSelection(server, state, viewer)) return;
  setViewer(viewer);
  marketStore.selectionError = null;
  if (state.selected) {
    delete marketStore.selected[server.id];
    return;
  }
  marketStore.selected[server.id] = selectedOf(server);
  if (!needsCooldown(server, true)) return;
  try {
    const response = await markServerProcessing(server.id, viewer.uuid);
    if (marketStore.viewerUuid !== viewer.uuid) return;
    applyProcessing(response);
  } catch (error) {
    if (marketStore.viewerUuid !== viewer.uuid) return;
    delete marketStore.selected[server.id];
    marketStore.selectionError = messageOf(error, 'Failed to select the server');
  }
}

export function clearSelection(): void {
  marketStore.selected = {};
  marketStore.selectionError = null;
}

export function dismissSelectionError(): void {
  marketStore.selectionError = null;
}
