import {
  type BillingCycle,
  type ChangeBillingTypeResponse,
  SUBSCRIPTION_MESSAGES,
  type Subscription,
  formatSsl,
} from '@scn/proto';
import { type Snapshot, proxy, useSnapshot } from 'valtio';
import { ApiError } from '../../lib/api-client';
import { newIdempotencyKey } from '../../lib/idempotency-key';
import { activateSubscription } from './api/activate-subscription';
import { changeBillingType } from './api/change-billing-type';
import { deleteSubscription } from './api/delete-subscription';
import { getActiveSubscriptions } from './api/get-active-subscriptions';
import { getPausedSubscriptions } from './api/get-paused-subscriptions';
import { pauseSubscription } from './api/pause-subscription';
import { setAutoRenew } from './api/set-auto-renew';

/** A subscription as components see it (a read-only snapshot of the store). */
export type SubscriptionView = Snapshot<Subscription>;

export type SubscriptionAction = 'pause' | 'activate' | 'delete' | 'change-type' | 'auto-renew';

export interface Notice {
  tone: 'error' | 'success' | 'warning';
  text: string;
}

export interface SubscriptionsState {
  /** The client whose subscriptions are held; another account starts from scratch. */
  ownerUuid: string | null;
  active: Subscription[];
  paused: Subscription[];
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  /** The action running on each subscription (its buttons wait). */
  busy: Record<string, SubscriptionAction>;
  /** The outcome of the last action (the spec's alerts), shown above the lists. */
  notice: Notice | null;
  /** Successful loads so far: a view that needs fresh lists waits for the next one. */
  loads: number;
}

export const subscriptionsStore = proxy<SubscriptionsState>({
  ownerUuid: null,
  active: [],
  paused: [],
  status: 'idle',
  error: null,
  busy: {},
  notice: null,
  loads: 0,
});

export function useSubscriptions() {
  return useSnapshot(subscriptionsStore);
}

export function dismissNotice(): void {
  subscriptionsStore.notice = null;
}

function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Unknown error';
}

let generation = 0;

/**
 * Loads the active and paused lists together (spec 02 §7). spec 01 §8: a failed load resets the
 * lists to empty; the error shows with Try Again.
 */
export async function loadSubscriptions(ownerUuid: string): Promise<void> {
  const store = subscriptionsStore;
  if (store.ownerUuid !== ownerUuid) {
    Object.assign(store, {
      ownerUuid,
      active: [],
      paused: [],
      status: 'idle',
      error: null,
      busy: {},
      notice: null,
    });
  }
  generation += 1;
  const mine = generation;
  if (store.status !== 'ready') store.status = 'loading';
  try {
    const [active, paused] = await Promise.all([
      getActiveSubscriptions(ownerUuid),
      getPausedSubscriptions(ownerUuid),
    ]);
    if (generation !== mine || store.ownerUuid !== ownerUuid) return;
    Object.assign(store, {
      active: active.subscriptions,
      paused: paused.subscriptions,
      status: 'ready',
      error: null,
      loads: store.loads + 1,
    });
  } catch (error) {
    if (generation !== mine || store.ownerUuid !== ownerUuid) return;
    Object.assign(store, { active: [], paused: [], status: 'error', error: messageOf(error) });
  }
}

async function run<T>(
  ownerUuid: string,
  subscriptionId: string,
  action: SubscriptionAction,
  call: () => Promise<T>,
): Promise<T> {
  subscriptionsStore.busy[subscriptionId] = action;
  try {
    return await call();
  } finally {
    delete subscriptionsStore.busy[subscriptionId];
    void loadSubscriptions(ownerUuid);
  }
}

export async function pause(ownerUuid: string, subscriptionId: string): Promise<void> {
  subscriptionsStore.notice = null;
  try {
    await run(ownerUuid, subscriptionId, 'pause', () =>
      pauseSubscription(ownerUuid, subscriptionId),
    );
    subscriptionsStore.notice = { tone: 'success', text: SUBSCRIPTION_MESSAGES.paused };
  } catch (error) {
    subscriptionsStore.notice = {
      tone: 'error',
      text: `Failed to pause subscription: ${messageOf(error)}`,
    };
  }
}

/** spec 02 §3 autoRenew: renew at the end of each period (paid then), or let it expire. */
export async function changeAutoRenew(
  ownerUuid: string,
  subscriptionId: string,
  autoRenew: boolean,
): Promise<void> {
  subscriptionsStore.notice = null;
  try {
    const response = await run(ownerUuid, subscriptionId, 'auto-renew', () =>
      setAutoRenew(ownerUuid, subscriptionId, autoRenew),
    );
    subscriptionsStore.notice = { tone: 'success', text: response.message };
  } catch (error) {
    subscriptionsStore.notice = {
      tone: 'error',
      text: `Failed to change renewal: ${messageOf(error)}`,
    };
  }
}

/** spec 02 §8 activate errors: 402 is the insufficient-funds alert, then server and network failures. */
export function activateErrorText(error: unknown): string {
  const message = messageOf(error);
  if (error instanceof ApiError && error.status === 402) {
    return message.startsWith('Cannot activate subscription')
      ? message
      : `Cannot activate subscription: ${message}`;
  }
  if (error instanceof ApiError && error.status > 0) {
    return `Failed to activate subscription: ${message}`;
  }
  return `Error activating subscription: ${message}`;
}

/** Activates a paused (or unpaid, or expired) subscription; resolves true when it ran. */
export async function activate(ownerUuid: string, subscriptionId: string): Promise<boolean> {
  subscriptionsStore.notice = null;
  try {
    await run(ownerUuid, subscriptionId, 'activate', () =>
      activateSubscription(ownerUuid, subscriptionId, newIdempotencyKey()),
    );
    subscriptionsStore.notice = { tone: 'success', text: SUBSCRIPTION_MESSAGES.activated };
    return true;
  } catch (error) {
    subscriptionsStore.notice = { tone: 'error', text: activateErrorText(error) };
    return false;
  }
}

/** spec 02 §8 delete errors: the server's refusal, or a request that did not get through. */
export function deleteErrorText(error: unknown): string {
  if (error instanceof ApiError && error.status > 0) {
    return `Failed to delete subscription: ${error.message || 'Unknown error'}`;
  }
  return `Error deleting subscription: ${messageOf(error)}`;
}

/** Deletes a subscription; rejects with the spec's message for the dialog to show. */
export async function remove(ownerUuid: string, subscriptionId: string): Promise<void> {
  subscriptionsStore.notice = null;
  try {
    await run(ownerUuid, subscriptionId, 'delete', () =>
      deleteSubscription(ownerUuid, subscriptionId),
    );
  } catch (error) {
    throw new Error(deleteErrorText(error));
  }
  subscriptionsStore.active = subscriptionsStore.active.filter(
    (item) => item.id !== subscriptionId,
  );
  subscriptionsStore.paused = subscriptionsStore.paused.filter(
    (item) => item.id !== subscriptionId,
  );
  subscriptionsStore.notice = { tone: 'success', text: SUBSCRIPTION_MESSAGES.deleted };
}

/** spec 02 §4: the alert when a billing change could not be paid and the server paused it. */
export function autoPauseText(response: ChangeBillingTypeResponse): string {
  // The wallet's exact balance; the required amount only comes as SSL (2 decimals) in the answer.
  const available = formatSsl(response.walletBalanceMicro);
  const required = response.requiredAmount === undefined ? '?' : response.requiredAmount.toFixed(2);
  return `Insufficient funds to change the billing type, so the subscription was paused. Available balance: ${available} SSL, required: ${required} SSL. Add SSL and activate it to resume.`;
}

/**
 * Changes the billing cycle (10 SSL per server, no refund). Short of funds the server pauses
 * the subscription: the alert says so with both amounts. Rejects with the failure's message.
 */
export async function changeType(
  ownerUuid: string,
  subscriptionId: string,
  newBillingCycle: BillingCycle,
): Promise<ChangeBillingTypeResponse> {
  subscriptionsStore.notice = null;
  const response = await run(ownerUuid, subscriptionId, 'change-type', () =>
    changeBillingType(ownerUuid, subscriptionId, newBillingCycle, newIdempotencyKey()),
  );
  subscriptionsStore.notice = response.automaticallyPaused
    ? { tone: 'warning', text: autoPauseText(response) }
    : { tone: 'success', text: response.message };
  return response;
}
