import { PROMOTION_MESSAGES, PROMOTION_ROUTES, type PromotionStatus } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** GET /servers/{id}/promotion: the owner's promotion status, plans and available balance. */
export function getPromotion(serverId: string, signal?: AbortSignal): Promise<PromotionStatus> {
  return api.get<PromotionStatus>(PROMOTION_ROUTES.promotion(serverId), {
    signal,
    fallbackMessage: PROMOTION_MESSAGES.fetchFailed,
  });
}
