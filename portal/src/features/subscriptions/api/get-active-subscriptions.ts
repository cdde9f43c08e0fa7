import { SUBSCRIPTION_ROUTES, type SubscriptionsResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** GET /api/clients/subscriptions/{uuid} (docs/product/calls.md#dashboard-calls). */
export function getActiveSubscriptions(
  ownerUuid: string,
  signal?: AbortSignal,
): Promise<SubscriptionsResponse> {
  return api.get<SubscriptionsResponse>(SUBSCRIPTION_ROUTES.active(ownerUuid), {
    signal,
    fallbackMessage: 'Failed to load subscriptions',
  });
}
