import type { NodeServer } from '@scn/proto';
import { proxy, useSnapshot } from 'valtio';
import { STORAGE_KEYS } from '../../lib/storage';

/** docs/product/states.md#subscription-and-reliability-states: a change of this many reliability points between refreshes gets a toast. */
export const RELIABILITY_TOAST_POINTS = 10;
/** docs/product/constants.md#billing-and-the-economy: the periodic server update. */
export const REFRESH_INTERVAL_MS = 60_000;
const TOAST_MS = 6_000;

/** What a toast says, worded by the toast region in the reader's language. */
export type ToastMessage =
  | { kind: 'reliabilityRose' | 'reliabilityDropped'; name: string; from: number; to: number }
  | { kind: 'refreshFailed'; error: string | null };

export interface Toast {
  id: number;
  tone: 'info' | 'warning' | 'error';
  message: ToastMessage;
}

/** The dashboard's client state (the servers themselves are a query: api/get-servers.ts). */
export interface NodesState {
  toasts: Toast[];
  quickSetupOpen: boolean;
}

export const nodesStore = proxy<NodesState>({
  toasts: [],
  quickSetupOpen: localStorage.getItem(STORAGE_KEYS.quickSetupOpen) === 'true',
});

export function useNodes() {
  return useSnapshot(nodesStore);
}

let toastSeq = 0;

export function pushToast(tone: Toast['tone'], message: ToastMessage): void {
  toastSeq += 1;
  const id = toastSeq;
  nodesStore.toasts.push({ id, tone, message });
  window.setTimeout(() => dismissToast(id), TOAST_MS);
}

export function dismissToast(id: number): void {
  nodesStore.toasts = nodesStore.toasts.filter((toast) => toast.id !== id);
}

/** docs/product/screens.md#dashboards-and-information-pages: Quick Setup is collapsed by default and the choice is remembered locally. */
export function setQuickSetupOpen(open: boolean): void {
  nodesStore.quickSetupOpen = open;
  localStorage.setItem(STORAGE_KEYS.quickSetupOpen, String(open));
}

/** docs/product/records.md#dashboard-records: duplicates by id are removed when listed. */
export function uniqueById(servers: readonly NodeServer[]): NodeServer[] {
  const seen = new Set<string>();
  return servers.filter((server) => !seen.has(server.id) && seen.add(server.id) !== undefined);
}

/** docs/product/states.md#subscription-and-reliability-states: a toast for each server whose reliability moved by RELIABILITY_TOAST_POINTS. */
export function announceReliabilityChanges(
  before: readonly NodeServer[],
  after: readonly NodeServer[],
) {
  const previous = new Map(before.map((server) => [server.id, server.reliability]));
  for (const server of after) {
    const old = previous.get(server.id);
    if (old === undefined || Math.abs(server.reliability - old) < RELIABILITY_TOAST_POINTS) {
      continue;
    }
    const rose = server.reliability > old;
    pushToast(rose ? 'info' : 'warning', {
      kind: rose ? 'reliabilityRose' : 'reliabilityDropped',
      name: server.name,
      from: old,
      to: server.reliability,
    });
  }
}
