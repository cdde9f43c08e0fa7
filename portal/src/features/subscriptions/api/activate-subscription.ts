import {
  IDEMPOTENCY_KEY_HEADER,
  SUBSCRIPTION_ROUTES,
  type SubscriptionActionResponse,
} from '@scn/proto';
import { api } from '../../../lib/api-client';

/**
 * POST .../activate with an empty body (docs/product/calls.md#dashboard-calls). Activating an unpaid or expired
 * subscription pays a period, so the call carries an Idempotency-Key: a retried click pays once.
 */
export function activateSubscription(
  ownerUuid: string,
  subscriptionId: string,
  idempotencyKey: string,
): Promise<SubscriptionActionResponse> {
  return api.post<SubscriptionActionResponse>(
    SUBSCRIPTION_ROUTES.activate(ownerUuid, subscriptionId),
    {},
    { headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } },
  );
}
