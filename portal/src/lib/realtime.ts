import { io, type Socket } from 'socket.io-client';
import { API_BASE } from '../config/env';

/**
 * docs/product/calls.md#market-and-account-calls, docs/product/constants.md#market-prices-and-limits: the realtime events and the socket client's reconnection defaults.
 * 'wallet-updated': a deposit was credited to this session's account; it carries no
 * amounts, wallets re-fetch. Its payload `{ reason, at }` says why: 'deposit' (credited) or
 * 'deposit_seen' (a transfer to the account's address is confirming); listeners here
 * re-fetch on either, so the reason is not read.
 * 'subscription-updated' (docs/reachability.md): one of this session's subscriptions changed
 * without the client doing anything; `{ reason: 'server_replaced' }` when a server blocked on
 * their network was replaced. It carries no names: listeners re-fetch the subscriptions.
 */
export type RealtimeEvent = 'server-list-updated' | 'wallet-updated' | 'subscription-updated';

let socket: Socket | null = null;
let listeners = 0;
let sessionToken: string | null = null;

/**
 * The session the socket presents ('wallet-updated' reaches only its owner's
 * sockets). Called on login and logout; a live socket reconnects as the new identity.
 */
export function setRealtimeSession(token: string | null): void {
  if (token === sessionToken) return;
  sessionToken = token;
  if (socket?.connected) socket.disconnect().connect();
}

/**
 * WebSocket first, HTTP long-polling when it fails (docs/deploy.md "Sticky sessions"): some
 * networks, censored ones among them, block or break WebSocket upgrades while plain HTTPS
 * passes. A refused or broken upgrade falls back to polling within the same attempt
 * (`tryAllTransports`). Any attempt that fails altogether (an upgrade held open until the
 * connect timeout never errs, so the fallback above never starts; or the control plane is down)
 * makes every later attempt start with polling, which still upgrades to WebSocket in the
 * background wherever that works.
 */
const WEBSOCKET_FIRST = ['websocket', 'polling'];
const POLLING_FIRST = ['polling', 'websocket'];

function connect(): Socket {
  if (socket) return socket;
  const created = io(API_BASE || undefined, {
    path: '/socket.io',
    // Read at every (re)connection; the cookie goes along too on the same origin.
    auth: (send) => send(sessionToken ? { token: sessionToken } : {}),
    transports: [...WEBSOCKET_FIRST],
    tryAllTransports: true,
    reconnection: true,
    reconnectionDelay: 1000,
    reconnectionDelayMax: 5000,
    randomizationFactor: 0.5,
    timeout: 20000,
    reconnectionAttempts: Infinity,
  });
  created.on('connect_error', () => {
    created.io.opts.transports = [...POLLING_FIRST];
  });
  socket = created;
  return created;
}

/**
 * Calls `handler` on every `event` with its payload (untrusted: check before reading); the socket
 * lives while anyone listens. Returns the unsubscribe.
 */
export function onRealtime(event: RealtimeEvent, handler: (payload?: unknown) => void): () => void {
  const current = connect();
  listeners += 1;
  current.on(event, handler);
  return () => {
    current.off(event, handler);
    listeners -= 1;
    if (listeners === 0) {
      current.close();
      socket = null;
    }
  };
}
