import { SUBSCRIPTION_ROUTES, type SubscriptionsResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** GET /api/clients/subscriptions/{uuid} (spec 02 §7). */
export function getActiveSubscriptions(ownerUuid: string): Promise<SubscriptionsResponse> {
  return api.get<SubscriptionsResponse>(SUBSCRIPTION_ROUTES.active(ownerUuid), {
    fallbackMessage: 'Failed to load subscriptions',
  });
}
