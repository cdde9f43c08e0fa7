import { STAKING_MESSAGES, STAKING_ROUTES, type StakingResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** GET /api/nodes/{uuid}/staking: the stake, its locks and halving protection per server. */
export function getStaking(ownerUuid: string, signal?: AbortSignal): Promise<StakingResponse> {
  return api.get<StakingResponse>(STAKING_ROUTES.staking(ownerUuid), {
    signal,
    fallbackMessage: STAKING_MESSAGES.fetchFailed,
  });
}
