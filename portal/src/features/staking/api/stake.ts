import {
  IDEMPOTENCY_KEY_HEADER,
  STAKING_MESSAGES,
  STAKING_ROUTES,
  type StakeMoveResponse,
} from '@scn/proto';
import { api } from '../../../lib/api-client';

/**
 * POST /api/nodes/{uuid}/stake: moves money from the node wallet to the stake, so it carries an
 * Idempotency-Key (a retried click moves once). The server decides what is available.
 */
export function stake(
  ownerUuid: string,
  amountMicro: string,
  idempotencyKey: string,
): Promise<StakeMoveResponse> {
  return api.post<StakeMoveResponse>(
    STAKING_ROUTES.stake(ownerUuid),
    { amountMicro },
    {
      headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
      fallbackMessage: STAKING_MESSAGES.stakeFailed,
    },
  );
}
