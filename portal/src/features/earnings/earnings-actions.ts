import type { Earnings, EarningsResponse } from '@scn/proto';
import { messageOf } from '../../lib/error-message';

export interface EarningsState {
  /** The account whose statements are held; another account starts from scratch. */
  ownerUuid: string | null;
  /** The server's current month (its answer without `?period`); null until it answered. */
  latestPeriod: string | null;
  /** The month asked for (null: the current one). */
  period: string | null;
  status: 'idle' | 'loading' | 'ready' | 'error';
  data: Earnings | null;
  error: string | null;
}

export const initialEarningsState = (): EarningsState => ({
  ownerUuid: null,
  latestPeriod: null,
  period: null,
  status: 'idle',
  data: null,
  error: null,
});

/** The call the actions make (the feature's api/, or a test's fake). */
export interface EarningsCalls {
  get(ownerUuid: string, period: string | undefined): Promise<EarningsResponse>;
}

/** The earnings section's actions over `state` (the store's valtio proxy). */
export function earningsActions(state: EarningsState, calls: EarningsCalls) {
  let generation = 0;

  /**
   * Loads the statement of `period` (undefined: the server's current month). Another month shows
   * the loading state at once; the same month again (a refresh) keeps what is shown, and a
   * failed refresh leaves it. Only the last call's answer is kept.
   */
  async function load(ownerUuid: string, period?: string): Promise<void> {
    if (state.ownerUuid !== ownerUuid) Object.assign(state, initialEarningsState(), { ownerUuid });
    const wanted = period ?? null;
    const refresh = state.data !== null && wanted === state.period;
    generation += 1;
    const mine = generation;
    const current = () => generation === mine && state.ownerUuid === ownerUuid;
    state.period = wanted;
    if (!refresh) Object.assign(state, { status: 'loading', data: null, error: null });
    try {
      const { earnings } = await calls.get(ownerUuid, period);
      if (!current()) return;
      const latest =
        period === undefined ||
        (state.latestPeriod !== null && earnings.period > state.latestPeriod)
          ? earnings.period
          : state.latestPeriod;
      Object.assign(state, { data: earnings, status: 'ready', error: null, latestPeriod: latest });
    } catch (failure) {
      if (current() && !refresh)
        Object.assign(state, {
          status: 'error',
          data: null,
          error: messageOf(failure, 'Something went wrong'),
        });
    }
  }

  /** Loads what is asked now again (Try Again, or a payout that changed the figures). */
  function reload(ownerUuid: string): Promise<void> {
    return load(ownerUuid, state.ownerUuid === ownerUuid ? (state.period ?? undefined) : undefined);
  }

  return { load, reload };
}
