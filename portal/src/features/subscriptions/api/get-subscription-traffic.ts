import { type SubscriptionTrafficResponse, TRAFFIC_ROUTES } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** A client's subscription, its traffic per server per UTC day (last 30). */
export function getSubscriptionTraffic(
  ownerUuid: string,
  subscriptionId: string,
  signal?: AbortSignal,
): Promise<SubscriptionTrafficResponse> {
  return api.get<SubscriptionTrafficResponse>(
    TRAFFIC_ROUTES.subscriptionTraffic(ownerUuid, subscriptionId),
    { signal, fallbackMessage: 'Failed to load the traffic' },
  );
}
