import { SUBSCRIPTION_ROUTES, type SubscriptionActionResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** POST .../pause with an empty body (docs/product/calls.md#dashboard-calls). */
export function pauseSubscription(
  ownerUuid: string,
  subscriptionId: string,
): Promise<SubscriptionActionResponse> {
  return api.post<SubscriptionActionResponse>(SUBSCRIPTION_ROUTES.pause(ownerUuid, subscriptionId));
}
