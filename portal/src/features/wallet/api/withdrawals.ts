import {
  WITHDRAWAL_MESSAGES,
  WITHDRAWAL_ROUTES,
  type WithdrawRequest,
  type WithdrawResponse,
  type WithdrawalsResponse,
} from '@scn/proto';
import { api } from '../../../lib/api-client';

const FETCH_FAILED = 'Failed to fetch withdrawals';

/** GET /wallet/node/{uuid}/withdrawals: the settings, today's cap, the withdrawals. */
export function getWithdrawals(ownerUuid: string): Promise<WithdrawalsResponse> {
  return api.get<WithdrawalsResponse>(WITHDRAWAL_ROUTES.list(ownerUuid), {
    fallbackMessage: FETCH_FAILED,
  });
}

/**
 * POST /wallet/node/{uuid}/withdraw with the form's Idempotency-Key (one per confirmation, so a
 * retried click never withdraws twice). spec 02 §8: the server's message, else the fallback.
 */
export function postWithdraw(
  ownerUuid: string,
  body: WithdrawRequest,
  idempotencyKey: string,
): Promise<WithdrawResponse> {
  return api.post<WithdrawResponse>(WITHDRAWAL_ROUTES.withdraw(ownerUuid), body, {
    fallbackMessage: WITHDRAWAL_MESSAGES.failed,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}
