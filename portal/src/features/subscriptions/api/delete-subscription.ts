import { SUBSCRIPTION_ROUTES, type MessageResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** DELETE /api/clients/subscription/{uuid}/{id} (docs/product/calls.md#dashboard-calls). */
export function deleteSubscription(
  ownerUuid: string,
  subscriptionId: string,
): Promise<MessageResponse> {
  return api.delete<MessageResponse>(SUBSCRIPTION_ROUTES.subscription(ownerUuid, subscriptionId));
}
