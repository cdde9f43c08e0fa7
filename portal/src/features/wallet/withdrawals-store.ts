import type { WithdrawalsResponse } from '@scn/proto';
import { proxy, useSnapshot } from 'valtio';
import { getWithdrawals } from './api/withdrawals';
import { anyInFlight } from './withdraw-rules';

export interface WithdrawalsState {
  ownerUuid: string | null;
  status: 'idle' | 'loading' | 'ready' | 'error';
  data: WithdrawalsResponse | null;
}

/** The node wallet's withdrawals (issue 18 §5): whether they are on, and their statuses. */
export const withdrawalsStore = proxy<WithdrawalsState>({
  ownerUuid: null,
  status: 'idle',
  data: null,
});

export function useWithdrawals() {
  return useSnapshot(withdrawalsStore);
}

/** How often a withdrawal on its way to the chain is asked about. */
const FOLLOW_MS = 1500;
let follow: number | null = null;
let generation = 0;

/**
 * Loads the list (a failure keeps what is shown; a first failure shows Withdraw as unavailable).
 * While a payout is pending or sent, asks again every 1.5 s until it settles.
 */
export async function loadWithdrawals(ownerUuid: string): Promise<void> {
  if (withdrawalsStore.ownerUuid !== ownerUuid) {
    Object.assign(withdrawalsStore, { ownerUuid, status: 'loading', data: null });
  }
  generation += 1;
  const mine = generation;
  try {
    const data = await getWithdrawals(ownerUuid);
    if (mine !== generation || withdrawalsStore.ownerUuid !== ownerUuid) return;
    Object.assign(withdrawalsStore, { status: 'ready', data });
  } catch {
    if (mine !== generation || withdrawalsStore.ownerUuid !== ownerUuid) return;
    if (!withdrawalsStore.data) withdrawalsStore.status = 'error';
  }
  if (follow !== null) window.clearTimeout(follow);
  follow = null;
  if (withdrawalsStore.data && anyInFlight(withdrawalsStore.data.withdrawals)) {
    follow = window.setTimeout(() => void loadWithdrawals(ownerUuid), FOLLOW_MS);
  }
}

/** Stops following (the panel went away). */
export function stopFollowingWithdrawals(): void {
  if (follow !== null) window.clearTimeout(follow);
  follow = null;
  generation += 1;
}
