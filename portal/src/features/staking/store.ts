import { proxy, useSnapshot } from 'valtio';
import { newIdempotencyKey } from '../../lib/idempotency-key';
import { getStaking } from './api/get-staking';
import { setAutoStake } from './api/set-auto-stake';
import { stake } from './api/stake';
import { unstake } from './api/unstake';
import { initialStakingState, type StakingState, stakingActions } from './staking-actions';

export const stakingStore = proxy<StakingState>(initialStakingState());

export function useStaking() {
  return useSnapshot(stakingStore);
}

const actions = stakingActions(stakingStore, {
  get: (ownerUuid) => getStaking(ownerUuid),
  stake,
  unstake,
  setAutoStake,
  newKey: newIdempotencyKey,
});

export const loadStaking = actions.load;
export const moveStake = actions.move;
export const saveAutoStake = actions.saveAuto;
export const checkStakeAmount = actions.check;
