import { SUBSCRIPTION_ROUTES, type SubscriptionActionResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** POST .../auto-renew: renew at the end of each period, or let the subscription expire. */
export function setAutoRenew(
  ownerUuid: string,
  subscriptionId: string,
  autoRenew: boolean,
): Promise<SubscriptionActionResponse> {
  return api.post<SubscriptionActionResponse>(
    SUBSCRIPTION_ROUTES.autoRenew(ownerUuid, subscriptionId),
    { autoRenew },
  );
}
