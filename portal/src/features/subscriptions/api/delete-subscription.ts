import { SUBSCRIPTION_ROUTES, type MessageResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** DELETE /api/clients/subscription/{uuid}/{id} (spec 02 §7). */
export function deleteSubscription(
  ownerUuid: string,
  subscriptionId: string,
): Promise<MessageResponse> {
  return api.delete<MessageResponse>(SUBSCRIPTION_ROUTES.subscription(ownerUuid, subscriptionId));
}
