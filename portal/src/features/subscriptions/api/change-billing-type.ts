import {
  type BillingCycle,
  type ChangeBillingTypeResponse,
  IDEMPOTENCY_KEY_HEADER,
  SUBSCRIPTION_ROUTES,
} from '@scn/proto';
import { api } from '../../../lib/api-client';

/** docs/product/constants.md#billing-and-the-economy: change-type timeout 15 s. */
export const CHANGE_TYPE_TIMEOUT_MS = 15_000;

/**
 * POST .../change-type with `newBillingCycle` (docs/product/calls.md#dashboard-calls). It charges 10 SSL per server, so it
 * carries an Idempotency-Key; it gives up after 15 s.
 */
export async function changeBillingType(
  ownerUuid: string,
  subscriptionId: string,
  newBillingCycle: BillingCycle,
  idempotencyKey: string,
): Promise<ChangeBillingTypeResponse> {
  const controller = new AbortController();
  const timer = window.setTimeout(() => controller.abort(), CHANGE_TYPE_TIMEOUT_MS);
  try {
    return await api.post<ChangeBillingTypeResponse>(
      SUBSCRIPTION_ROUTES.changeType(ownerUuid, subscriptionId),
      { newBillingCycle },
      {
        signal: controller.signal,
        headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
        fallbackMessage: 'Failed to change the billing type',
      },
    );
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') {
      throw new Error(
        'The billing change took too long to answer. Please check the subscription before trying again.',
      );
    }
    throw error;
  } finally {
    window.clearTimeout(timer);
  }
}
