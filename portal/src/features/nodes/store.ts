import type {
  NodeServer,
  NodeServerDetails,
  NodeTransport,
  UpdateServerRequest,
  UpdateServerResponse,
} from '@scn/proto';
import { proxy, useSnapshot } from 'valtio';
import { ApiError } from '../../lib/api-client';
import { STORAGE_KEYS } from '../../lib/storage';
import { deleteServer } from './api/delete-server';
import { getServers } from './api/get-servers';
import { changeTransport, regeneratePort } from './api/inbound-plan';
import { updateServer } from './api/update-server';
import { messageOf } from '../../lib/error-message';

/** spec 02 §4: a change of this many reliability points between refreshes gets a toast. */
export const RELIABILITY_TOAST_POINTS = 10;
/** spec 02 §9: the periodic server update. */
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

export interface NodesState {
  /** The operator whose servers are held; another account starts from scratch. */
  ownerUuid: string | null;
  servers: NodeServer[];
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** The server's message when the first load failed; null: a failure without one. */
  error: string | null;
  refreshing: boolean;
  lastRefreshedAt: number | null;
  toasts: Toast[];
  quickSetupOpen: boolean;
}

export const nodesStore = proxy<NodesState>({
  ownerUuid: null,
  servers: [],
  status: 'idle',
  error: null,
  refreshing: false,
  lastRefreshedAt: null,
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

/** spec 02 §2: Quick Setup is collapsed by default and the choice is remembered locally. */
export function setQuickSetupOpen(open: boolean): void {
  nodesStore.quickSetupOpen = open;
  localStorage.setItem(STORAGE_KEYS.quickSetupOpen, String(open));
}

/** spec 02 §3: duplicates by id are removed when listed. */
function uniqueById(servers: readonly NodeServer[]): NodeServer[] {
  const seen = new Set<string>();
  return servers.filter((server) => !seen.has(server.id) && seen.add(server.id) !== undefined);
}

function announceReliabilityChanges(before: readonly NodeServer[], after: readonly NodeServer[]) {
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

let inFlight: Promise<void> | null = null;
let generation = 0;

/**
 * Loads the operator's servers. A refresh while one is running joins it (spec 02 §4: servers
 * already updating are skipped). The first load shows its error in place; a failed later refresh
 * keeps the list and shows a toast (spec 02 §8).
 */
export function loadServers(ownerUuid: string): Promise<void> {
  if (nodesStore.ownerUuid !== ownerUuid) {
    Object.assign(nodesStore, {
      ownerUuid,
      servers: [],
      status: 'idle',
      error: null,
      lastRefreshedAt: null,
    });
    inFlight = null;
  }
  if (inFlight) return inFlight;
  generation += 1;
  const mine = generation;
  inFlight = (async () => {
    const initial = nodesStore.status !== 'ready';
    if (initial) nodesStore.status = 'loading';
    nodesStore.refreshing = true;
    try {
      const { servers } = await getServers(ownerUuid);
      if (nodesStore.ownerUuid !== ownerUuid) return;
      const next = uniqueById(servers);
      if (!initial) announceReliabilityChanges(nodesStore.servers, next);
      Object.assign(nodesStore, {
        servers: next,
        status: 'ready',
        error: null,
        lastRefreshedAt: Date.now(),
      });
    } catch (error) {
      if (nodesStore.ownerUuid !== ownerUuid) return;
      if (initial) {
        nodesStore.status = 'error';
        nodesStore.error = messageOf(error);
      } else {
        pushToast('error', { kind: 'refreshFailed', error: messageOf(error) });
      }
    } finally {
      if (generation === mine) {
        nodesStore.refreshing = false;
        inFlight = null;
      }
    }
  })();
  return inFlight;
}

/**
 * Errors of the calls below: the control plane's message, or an empty one for a failure without
 * it (the dialog then shows its own words for it).
 */
function failure(error: unknown): Error {
  return new Error(error instanceof ApiError ? error.message : '');
}

/** Deletes a server and drops it from the list; rejects with the server's message. */
export async function removeServer(ownerUuid: string, serverId: string): Promise<void> {
  try {
    await deleteServer(ownerUuid, serverId);
  } catch (error) {
    throw failure(error);
  }
  nodesStore.servers = nodesStore.servers.filter((server) => server.id !== serverId);
}

/**
 * Node Configuration: saves the changed settings and shows them in the list at once (the
 * realtime event refetches too). Resolves with the server as saved; rejects with the server's
 * message (e.g. the field that was refused).
 */
export async function saveServerSettings(
  ownerUuid: string,
  serverId: string,
  changes: UpdateServerRequest,
): Promise<NodeServerDetails> {
  let saved: NodeServerDetails;
  try {
    ({ server: saved } = await updateServer(ownerUuid, serverId, changes));
  } catch (error) {
    throw failure(error);
  }
  if (nodesStore.ownerUuid === ownerUuid) {
    const listed = nodesStore.servers.find((server) => server.id === serverId);
    if (listed)
      Object.assign(listed, { name: saved.name, country: saved.country, location: saved.location });
  }
  return saved;
}

/**
 * Node Configuration (issue 19 §1): a new transport, or an emergency port regeneration. The
 * dashboard's row shows the change pending until the node reports serving it. Throws an Error
 * with the control plane's message.
 */
export async function changeServerInbound(
  ownerUuid: string,
  serverId: string,
  change: { transport: NodeTransport } | { regeneratePort: true },
): Promise<{ server: NodeServerDetails; message: string }> {
  let response: UpdateServerResponse;
  try {
    response =
      'transport' in change
        ? await changeTransport(ownerUuid, serverId, change.transport)
        : await regeneratePort(ownerUuid, serverId);
  } catch (error) {
    throw failure(error);
  }
  if (nodesStore.ownerUuid === ownerUuid) {
    const listed = nodesStore.servers.find((server) => server.id === serverId);
    if (listed) listed.inboundPending = response.server.inboundPending;
  }
  return { server: response.server, message: response.message };
}
