import { proxy, useSnapshot } from 'valtio';
import { newIdempotencyKey } from '../../lib/idempotency-key';
import { queryClient } from '../../lib/query-client';
import { getStaking } from './api/get-staking';
import { setAutoStake } from './api/set-auto-stake';
import { stake } from './api/stake';
import { unstake } from './api/unstake';
import { initialStakingState, type StakingState, stakingActions } from './staking-actions';

/** The action in flight and its notice (client state; the staking data is a query). */
export const stakingStore = proxy<StakingState>(initialStakingState());

/** The action state of `ownerUuid` (another account's notice is not theirs). */
export function useStakingActionState(ownerUuid: string) {
  const state = useSnapshot(stakingStore);
  return state.ownerUuid === ownerUuid ? state : { ...initialStakingState(), ownerUuid };
}

const actions = stakingActions(
  stakingStore,
  { get: getStaking, stake, unstake, setAutoStake, newKey: newIdempotencyKey },
  queryClient,
);

export const moveStake = actions.move;
export const saveAutoStake = actions.saveAuto;
export const checkStakeAmount = actions.check;
