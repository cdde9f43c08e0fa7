import {
  CONNECT_COOLDOWN_SECONDS,
  WALLET_MESSAGES,
  toMicro,
  type MarketServer,
  type UserType,
} from '@scn/proto';
import { formatMicroSsl } from '../../lib/money';

/**
 * The market's display and selection rules (docs/product/states.md#market-and-account-states "Server disabled", "Connect cooldown",
 * docs/product/input-rules.md#market-and-account-input purchasing, docs/product/constants.md#market-prices-and-limits "Display"). Pure functions of their arguments, so they are unit-tested.
 */

/** Who looks at the market: null for a signed-out visitor. */
export interface MarketViewer {
  uuid: string;
  userType: UserType;
}

/**
 * docs/product/states.md#market-and-account-states "Server disabled": no available slots, isDisabled, the connect control off, or
 * status unavailable/offline.
 */
export function isServerDisabled(
  server: Pick<MarketServer, 'isDisabled' | 'controls' | 'availableUuids' | 'status'>,
): boolean {
  return (
    server.isDisabled ||
    !server.controls.connectButton ||
    server.availableUuids <= 0 ||
    server.status === 'unavailable' ||
    server.status === 'offline'
  );
}

/**
 * docs/product/states.md#market-and-account-states: admin servers show 100%; an unavailable, stale or connect-off server shows 0;
 * docs/product/constants.md#market-prices-and-limits: 100 when unknown.
 */
export function displayReliability(
  server: Pick<
    MarketServer,
    'isAdminServer' | 'unavailable' | 'isStale' | 'controls' | 'reliability'
  >,
): number {
  if (server.isAdminServer) return 100;
  if (server.unavailable || server.isStale || !server.controls.connectButton) return 0;
  return Number.isFinite(server.reliability) ? Math.round(server.reliability) : 100;
}

/** docs/product/roles.md#who-may-use-the-market-and-wallet: a node operator owns a server when its uuid is nodeUUID, userUuid or authUuid. */
export function isOwnServer(
  server: Pick<MarketServer, 'nodeUUID' | 'userUuid' | 'authUuid'>,
  viewer: MarketViewer | null,
): boolean {
  if (!viewer || viewer.userType !== 'node') return false;
  const uuid = viewer.uuid.toLowerCase();
  return [server.nodeUUID, server.userUuid, server.authUuid].some(
    (owner) => owner.toLowerCase() === uuid,
  );
}

/** What a card needs to know about its server's state for the viewer. */
export interface CardState {
  selected: boolean;
  /** Seconds left of the connect cooldown; undefined when the server is not processing. */
  processingSeconds: number | undefined;
}

/** What the client's Connect button says (its label is the catalogue's `market.card.action.*`). */
export type ConnectAction = 'subscribed' | 'unavailable' | 'cooldown' | 'selected' | 'connect';

/**
 * docs/product/screens.md#the-shell-and-the-market-screens "Server card": the client's Connect button, in the spec's order of precedence:
 * Already Subscribed, Unavailable, the cooldown, Selected, Connect.
 */
export function connectAction(
  server: Pick<
    MarketServer,
    'isSubscribed' | 'isDisabled' | 'controls' | 'availableUuids' | 'status'
  >,
  state: CardState,
): ConnectAction {
  if (server.isSubscribed) return 'subscribed';
  if (isServerDisabled(server)) return 'unavailable';
  if (state.processingSeconds !== undefined) return 'cooldown';
  if (state.selected) return 'selected';
  return 'connect';
}

/** docs/product/screens.md#the-shell-and-the-market-screens: n is the remaining processing time, default 60. */
export function cooldownSeconds(remaining: number | undefined): number {
  if (remaining === undefined || !Number.isFinite(remaining)) return CONNECT_COOLDOWN_SECONDS;
  return Math.max(0, Math.ceil(remaining));
}

/**
 * docs/product/screens.md#the-shell-and-the-market-screens, docs/product/states.md#market-and-account-states: a click toggles the selection only for a signed-in client, and never on a
 * processing, disabled or already subscribed server.
 */
export function canToggleSelection(
  server: Pick<
    MarketServer,
    'isSubscribed' | 'isDisabled' | 'controls' | 'availableUuids' | 'status'
  >,
  state: CardState,
  viewer: MarketViewer | null,
): boolean {
  if (!viewer || viewer.userType !== 'client') return false;
  if (server.isSubscribed || isServerDisabled(server)) return false;
  return state.processingSeconds === undefined;
}

/**
 * docs/product/states.md#market-and-account-states "Connect cooldown": selecting a non-admin server marks it processing; premium
 * servers bypass it, and a deselection never starts one.
 */
export function needsCooldown(server: Pick<MarketServer, 'isAdminServer'>, selecting: boolean) {
  return selecting && !server.isAdminServer;
}

/** docs/product/constants.md#market-prices-and-limits: card animations stagger 0.05 s each, capped at 0.6 s. */
export function staggerDelaySeconds(index: number): number {
  return Math.min(Math.max(0, index) * 0.05, 0.6);
}

/** docs/product/constants.md#market-prices-and-limits: the back-to-top button appears after more than 300 px of scrolling. */
export const BACK_TO_TOP_THRESHOLD_PX = 300;

export function showBackToTop(scrollY: number): boolean {
  return scrollY > BACK_TO_TOP_THRESHOLD_PX;
}

/** A monthly price: 'Free' for 0, else 'x SSL' (exact, from micro-SSL). English: docs/i18n.md. */
export function priceLabel(priceMicro: string): string {
  const micro = toMicro(priceMicro);
  return micro === 0n ? 'Free' : formatMicroSsl(micro, 'en');
}

/**
 * The price shown before paying: the sum of the selected servers' listed prices (docs/product/constants.md#market-prices-and-limits:
 * (regular + admin servers) x 10 SSL). Display only: the server prices the purchase itself.
 */
export function totalPriceMicro(servers: readonly { priceMicro: string }[]): bigint {
  return servers.reduce((sum, server) => sum + toMicro(server.priceMicro), 0n);
}

/**
 * docs/product/input-rules.md#market-and-account-input: Confirm Payment needs a balance of at least the price; the message names both
 * with 2 decimals (cut toward zero, lib/money.ts). Null when the balance covers it (or the subscription is free).
 */
export function insufficientBalanceMessage(
  priceMicro: bigint,
  balanceMicro: bigint,
): string | null {
  if (priceMicro <= 0n || balanceMicro >= priceMicro) return null;
  const cents = (micro: bigint) => formatMicroSsl(micro, 'en', { decimals: 'cents', unit: false });
  return WALLET_MESSAGES.insufficientBalance(cents(priceMicro), cents(balanceMicro));
}

/** docs/product/screens.md#the-shell-and-the-market-screens pagination: every page up to 7, else the ends and a window around the current one. */
export function pageItems(current: number, total: number): (number | 'gap')[] {
  if (total <= 7) return Array.from({ length: total }, (_, i) => i + 1);
  const pages = new Set([1, total, current - 1, current, current + 1]);
  if (current <= 3) [2, 3, 4].forEach((page) => pages.add(page));
  if (current >= total - 2) [total - 3, total - 2, total - 1].forEach((page) => pages.add(page));
  const sorted = [...pages].filter((page) => page >= 1 && page <= total).sort((a, b) => a - b);
  const items: (number | 'gap')[] = [];
  for (const page of sorted) {
    const previous = items[items.length - 1];
    if (typeof previous === 'number' && page - previous > 1) items.push('gap');
    items.push(page);
  }
  return items;
}

/**
 * What the list says of a search's matches (docs/api.md "Market search"): their number, or
 * past the cap "more than" the cap, since the control plane stops counting there.
 */
export function searchResults(
  total: number,
  capped: boolean,
): { key: 'market.results.found' | 'market.results.foundMore'; count: number } {
  return capped
    ? { key: 'market.results.foundMore', count: total }
    : { key: 'market.results.found', count: total };
}
