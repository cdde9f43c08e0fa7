import { SUBSCRIPTION_ROUTES, type SubscriptionQrCodesResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** The group and per-server QR codes of one subscription (PNG data URLs, 180 px, level L). */
export function getSubscriptionQrCodes(
  ownerUuid: string,
  subscriptionId: string,
  signal?: AbortSignal,
): Promise<SubscriptionQrCodesResponse> {
  return api.get<SubscriptionQrCodesResponse>(
    SUBSCRIPTION_ROUTES.qrCodes(ownerUuid, subscriptionId),
    { signal, fallbackMessage: 'No valid QR code data available' },
  );
}
