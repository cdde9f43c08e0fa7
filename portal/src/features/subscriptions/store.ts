import { type BillingCycle, type ChangeBillingTypeResponse, type Subscription } from '@scn/proto';
import { type Snapshot, proxy, useSnapshot } from 'valtio';
import { ApiError } from '../../lib/api-client';
import { newIdempotencyKey } from '../../lib/idempotency-key';
import { activateSubscription } from './api/activate-subscription';
import { changeBillingType } from './api/change-billing-type';
import { deleteSubscription } from './api/delete-subscription';
import { pauseSubscription } from './api/pause-subscription';
import { setAutoRenew } from './api/set-auto-renew';
import { dropListedSubscription, refreshSubscriptions } from './subscriptions-query';
import { messageOf } from '../../lib/error-message';

/** A subscription as components see it (a read-only snapshot of the store). */
export type SubscriptionView = Snapshot<Subscription>;

export type SubscriptionAction = 'pause' | 'activate' | 'delete' | 'change-type' | 'auto-renew';

/** What a notice says: a key of the client catalogue's `notice.*` (docs/i18n.md). */
export type NoticeKey =
  | 'paused'
  | 'activated'
  | 'deleted'
  | 'autoRenewOn'
  | 'autoRenewOff'
  | 'typeChangedHourly'
  | 'typeChangedMonthly'
  | 'autoPaused'
  | 'pauseFailed'
  | 'renewFailed'
  | 'activateRefused'
  | 'activateFailed'
  | 'activateError'
  | 'deleteFailed'
  | 'deleteError'
  | 'serverReplaced';

/**
 * The outcome of an action, shown in the reader's language: the catalogue key and its values.
 * `message` is what the server said (its own words, until the API's errors are translated by
 * code); amounts stay exact (micro-SSL) for the view to format.
 */
export interface Notice {
  tone: 'error' | 'success' | 'warning';
  key: NoticeKey;
  message?: string;
  availableMicro?: string;
  /** SSL with 2 decimals as the server gave it; undefined when it gave none. */
  required?: number;
}

/** A failed action the dialog shows in the reader's language (its message stays English). */
export class SubscriptionActionError extends Error {
  constructor(
    readonly key: NoticeKey,
    readonly detail: string,
    english: string,
  ) {
    super(english);
  }
}

/** The page's client state: actions in flight and their outcome (the lists are a query). */
export interface SubscriptionsState {
  /** The client the notice and actions are about; another account's are never shown. */
  ownerUuid: string | null;
  /** The action running on each subscription (its buttons wait). */
  busy: Record<string, SubscriptionAction>;
  /** The outcome of the last action (the spec's alerts), shown above the lists. */
  notice: Notice | null;
}

export const subscriptionsStore = proxy<SubscriptionsState>({
  ownerUuid: null,
  busy: {},
  notice: null,
});

/** The action state of `ownerUuid`. */
export function useSubscriptionActions(ownerUuid: string) {
  const state = useSnapshot(subscriptionsStore);
  return state.ownerUuid === ownerUuid ? state : { ownerUuid, busy: {}, notice: null };
}

/** Actions from now on are `ownerUuid`'s: another account starts with none. */
function actFor(ownerUuid: string): void {
  if (subscriptionsStore.ownerUuid !== ownerUuid)
    Object.assign(subscriptionsStore, { ownerUuid, busy: {}, notice: null });
}

/**
 * 'subscription-updated' with reason 'server_replaced' (docs/reachability.md): a server blocked on
 * the client's network was replaced. The event names nothing; the lists are re-fetched.
 */
export function noticeServerReplaced(ownerUuid: string): void {
  actFor(ownerUuid);
  subscriptionsStore.notice = { tone: 'warning', key: 'serverReplaced' };
}

export function dismissNotice(): void {
  subscriptionsStore.notice = null;
}

async function run<T>(
  ownerUuid: string,
  subscriptionId: string,
  action: SubscriptionAction,
  call: () => Promise<T>,
): Promise<T> {
  actFor(ownerUuid);
  subscriptionsStore.busy[subscriptionId] = action;
  try {
    return await call();
  } finally {
    delete subscriptionsStore.busy[subscriptionId];
    void refreshSubscriptions(ownerUuid);
  }
}

export async function pause(ownerUuid: string, subscriptionId: string): Promise<void> {
  subscriptionsStore.notice = null;
  try {
    await run(ownerUuid, subscriptionId, 'pause', () =>
      pauseSubscription(ownerUuid, subscriptionId),
    );
    subscriptionsStore.notice = { tone: 'success', key: 'paused' };
  } catch (error) {
    subscriptionsStore.notice = {
      tone: 'error',
      key: 'pauseFailed',
      message: messageOf(error, 'Unknown error'),
    };
  }
}

/** docs/product/records.md#dashboard-records autoRenew: renew at the end of each period (paid then), or let it expire. */
export async function changeAutoRenew(
  ownerUuid: string,
  subscriptionId: string,
  autoRenew: boolean,
): Promise<void> {
  subscriptionsStore.notice = null;
  try {
    await run(ownerUuid, subscriptionId, 'auto-renew', () =>
      setAutoRenew(ownerUuid, subscriptionId, autoRenew),
    );
    subscriptionsStore.notice = {
      tone: 'success',
      key: autoRenew ? 'autoRenewOn' : 'autoRenewOff',
    };
  } catch (error) {
    subscriptionsStore.notice = {
      tone: 'error',
      key: 'renewFailed',
      message: messageOf(error, 'Unknown error'),
    };
  }
}

/** docs/product/messages.md#dashboard-messages activate errors: 402 is the insufficient-funds alert, then server and network failures. */
export function activateErrorNotice(error: unknown): Notice {
  const message = messageOf(error, 'Unknown error');
  if (error instanceof ApiError && error.status === 402) {
    const prefix = /^Cannot activate subscription:\s*/;
    return { tone: 'error', key: 'activateRefused', message: message.replace(prefix, '') };
  }
  if (error instanceof ApiError && error.status > 0) {
    return { tone: 'error', key: 'activateFailed', message };
  }
  return { tone: 'error', key: 'activateError', message };
}

/** Activates a paused (or unpaid, or expired) subscription; resolves true when it ran. */
export async function activate(ownerUuid: string, subscriptionId: string): Promise<boolean> {
  subscriptionsStore.notice = null;
  try {
    await run(ownerUuid, subscriptionId, 'activate', () =>
      activateSubscription(ownerUuid, subscriptionId, newIdempotencyKey()),
    );
    subscriptionsStore.notice = { tone: 'success', key: 'activated' };
    return true;
  } catch (error) {
    subscriptionsStore.notice = activateErrorNotice(error);
    return false;
  }
}

/** docs/product/messages.md#dashboard-messages delete errors: the server's refusal, or a request that did not get through. */
export function deleteError(error: unknown): SubscriptionActionError {
  if (error instanceof ApiError && error.status > 0) {
    const message = error.message || 'Unknown error';
    return new SubscriptionActionError(
      'deleteFailed',
      message,
      `Failed to delete subscription: ${message}`,
    );
  }
  const message = messageOf(error, 'Unknown error');
  return new SubscriptionActionError(
    'deleteError',
    message,
    `Error deleting subscription: ${message}`,
  );
}

/** Deletes a subscription; rejects with the spec's message for the dialog to show. */
export async function remove(ownerUuid: string, subscriptionId: string): Promise<void> {
  subscriptionsStore.notice = null;
  try {
    await run(ownerUuid, subscriptionId, 'delete', () =>
      deleteSubscription(ownerUuid, subscriptionId),
    );
  } catch (error) {
    throw deleteError(error);
  }
  dropListedSubscription(ownerUuid, subscriptionId);
  subscriptionsStore.notice = { tone: 'success', key: 'deleted' };
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
  // docs/product/states.md#subscription-and-reliability-states: a change that could not be paid paused the subscription; the alert gives both
  // amounts (the wallet's exact balance; the required amount only comes as SSL, 2 decimals).
  subscriptionsStore.notice = response.automaticallyPaused
    ? {
        tone: 'warning',
        key: 'autoPaused',
        availableMicro: response.walletBalanceMicro,
        required: response.requiredAmount,
      }
    : {
        tone: 'success',
        key: newBillingCycle === 'hourly' ? 'typeChangedHourly' : 'typeChangedMonthly',
      };
  return response;
}
