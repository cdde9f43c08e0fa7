import {
  IDEMPOTENCY_KEY_HEADER,
  PROMOTION_MESSAGES,
  PROMOTION_ROUTES,
  type PromoteResponse,
} from '@scn/proto';
import { api } from '../../../lib/api-client';

/**
 * POST /servers/{id}/promote: pays the plan from the node wallet, so it carries an
 * Idempotency-Key (a retried click pays once). `cost` is the price the modal showed; the server
 * charges its own and refuses a different one.
 */
export function promoteServer(
  serverId: string,
  plan: { days: number; cost: number },
  idempotencyKey: string,
): Promise<PromoteResponse> {
  return api.post<PromoteResponse>(PROMOTION_ROUTES.promote(serverId), plan, {
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
    fallbackMessage: PROMOTION_MESSAGES.failed,
  });
}
