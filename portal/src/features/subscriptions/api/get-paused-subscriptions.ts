import { SUBSCRIPTION_ROUTES, type SubscriptionsResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** GET /api/clients/paused-subscriptions/{uuid} (docs/product/calls.md#dashboard-calls; expired ones are listed here too). */
export function getPausedSubscriptions(
  ownerUuid: string,
  signal?: AbortSignal,
): Promise<SubscriptionsResponse> {
  return api.get<SubscriptionsResponse>(SUBSCRIPTION_ROUTES.paused(ownerUuid), {
    signal,
    fallbackMessage: 'Failed to load paused subscriptions',
  });
}
