import { type AutoStakeResponse, STAKING_MESSAGES, STAKING_ROUTES } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** PUT /api/nodes/{uuid}/staking/auto: the share of each payout staked automatically. */
export function setAutoStake(ownerUuid: string, percent: number): Promise<AutoStakeResponse> {
  return api.put<AutoStakeResponse>(
    STAKING_ROUTES.autoStake(ownerUuid),
    { percent },
    { fallbackMessage: STAKING_MESSAGES.autoStakeFailed },
  );
}
