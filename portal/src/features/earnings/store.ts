import { proxy, useSnapshot } from 'valtio';
import { getEarnings } from './api/get-earnings';
import { earningsActions, type EarningsState, initialEarningsState } from './earnings-actions';

export const earningsStore = proxy<EarningsState>(initialEarningsState());

export function useEarnings() {
  return useSnapshot(earningsStore);
}

const actions = earningsActions(earningsStore, {
  get: (ownerUuid, period) => getEarnings(ownerUuid, period),
});

export const loadEarnings = actions.load;
export const reloadEarnings = actions.reload;
