import {
  IDEMPOTENCY_KEY_HEADER,
  STAKING_MESSAGES,
  STAKING_ROUTES,
  type StakeMoveResponse,
} from '@scn/proto';
import { api } from '../../../lib/api-client';

/** POST /api/nodes/{uuid}/unstake: unlocked stake back to the node wallet (Idempotency-Key). */
export function unstake(
  ownerUuid: string,
  amountMicro: string,
  idempotencyKey: string,
): Promise<StakeMoveResponse> {
  return api.post<StakeMoveResponse>(
    STAKING_ROUTES.unstake(ownerUuid),
    { amountMicro },
    {
      headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
      fallbackMessage: STAKING_MESSAGES.unstakeFailed,
    },
  );
}
