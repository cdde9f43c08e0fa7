import { STAKING_MESSAGES, STAKING_ROUTES, type StakingResponse } from '@scn/proto';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { readAgain } from '../../../lib/query-client';
import { stakingQuery, stakingQueryKey, stakingView } from '../staking-actions';

/** GET /api/nodes/{uuid}/staking: the stake, its locks and halving protection per server. */
export function getStaking(ownerUuid: string, signal?: AbortSignal): Promise<StakingResponse> {
  return api.get<StakingResponse>(STAKING_ROUTES.staking(ownerUuid), {
    signal,
    fallbackMessage: STAKING_MESSAGES.fetchFailed,
  });
}

export const stakingQueryOptions = (ownerUuid: string) =>
  stakingQuery(ownerUuid, { get: getStaking });

/** The staking settings as the panel shows them, and Try Again. */
export function useStaking(ownerUuid: string) {
  const read = useQuery(stakingQueryOptions(ownerUuid));
  return { ...stakingView(read), reload: () => void read.refetch() };
}

/** Reads the staking settings again where they are shown (a deposit or a reward arrived). */
export function refreshStaking(ownerUuid: string): Promise<void> {
  return readAgain(stakingQueryKey(ownerUuid));
}
