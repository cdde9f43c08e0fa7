import { type CheckSharesResponse, SOCIAL_MESSAGES, SOCIAL_ROUTES } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** GET /api/social/check-shares/{uuid}: which platforms are open now, and the pending reward. */
export function checkShares(uuid: string, signal?: AbortSignal): Promise<CheckSharesResponse> {
  return api.get<CheckSharesResponse>(SOCIAL_ROUTES.checkShares(uuid), {
    signal,
    fallbackMessage: SOCIAL_MESSAGES.errorLater,
  });
}
