import { type EarningsResponse, REWARDS_MESSAGES, REWARDS_ROUTES } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** GET /api/nodes/{uuid}/earnings[?period=YYYY-MM]: a month's statements, or this month so far. */
export function getEarnings(
  ownerUuid: string,
  period: string | undefined,
  signal?: AbortSignal,
): Promise<EarningsResponse> {
  return api.get<EarningsResponse>(REWARDS_ROUTES.earnings(ownerUuid, period), {
    signal,
    fallbackMessage: REWARDS_MESSAGES.fetchFailed,
  });
}
