import { SUBSCRIPTION_ROUTES, type SubscriptionActionResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** POST .../pause with an empty body (spec 02 §7). */
export function pauseSubscription(
  ownerUuid: string,
  subscriptionId: string,
): Promise<SubscriptionActionResponse> {
  return api.post<SubscriptionActionResponse>(SUBSCRIPTION_ROUTES.pause(ownerUuid, subscriptionId));
}
