import {
  type AutoStakeResponse,
  STAKING_MESSAGES,
  type StakeMoveResponse,
  type StakingData,
  type StakingResponse,
} from '@scn/proto';
import { type QueryClient, type QueryObserverResult, queryOptions } from '@tanstack/react-query';
import { messageOf } from '../../lib/error-message';
import { readAgain } from '../../lib/query-client';
import { parseAmount, parsePercent } from './staking-format';

export type StakingAction = 'stake' | 'unstake' | 'auto';

/** The staking section's client state: the action in flight and its answer (the data is a query). */
export interface StakingState {
  /** The account the notice is about; another account's is never shown. */
  ownerUuid: string | null;
  /** The call in flight (its buttons are disabled). */
  busy: StakingAction | null;
  /**
   * The answer of the last action: the server's message, shown as is, or the page's own check
   * (`local`: a key of STAKING_MESSAGES the portal translates).
   */
  notice: {
    action: StakingAction;
    tone: 'success' | 'error';
    text: string;
    local?: LocalStakingProblem;
    /** A success, with what moved or was saved (the page says it in the reader's language). */
    done?: StakingDone;
  } | null;
}

/** What a successful action did (STAKING_MESSAGES.staked / unstaked / autoStakeSaved). */
export type StakingDone =
  { kind: 'staked' | 'unstaked'; amountMicro: string } | { kind: 'autoSaved'; percent: number };

/** The form's own checks, made before any call (translated in the page). */
export type LocalStakingProblem = 'amountRequired' | 'amountInvalid' | 'percentInvalid';
const LOCAL_PROBLEMS: readonly LocalStakingProblem[] = [
  'amountRequired',
  'amountInvalid',
  'percentInvalid',
];

function localProblem(text: string): LocalStakingProblem | undefined {
  return LOCAL_PROBLEMS.find((key) => STAKING_MESSAGES[key] === text);
}

export const initialStakingState = (): StakingState => ({
  ownerUuid: null,
  busy: null,
  notice: null,
});

export const stakingQueryKey = (ownerUuid: string) => ['staking', ownerUuid] as const;

/** The calls the actions make (the feature's api/, or a test's fakes). */
export interface StakingCalls {
  get(ownerUuid: string, signal?: AbortSignal): Promise<StakingResponse>;
  stake(ownerUuid: string, amountMicro: string, idempotencyKey: string): Promise<StakeMoveResponse>;
  unstake(
    ownerUuid: string,
    amountMicro: string,
    idempotencyKey: string,
  ): Promise<StakeMoveResponse>;
  setAutoStake(ownerUuid: string, percent: number): Promise<AutoStakeResponse>;
  newKey(): string;
}

/** The staking settings of `ownerUuid` as a query. */
export function stakingQuery(ownerUuid: string, calls: Pick<StakingCalls, 'get'>) {
  return queryOptions({
    queryKey: stakingQueryKey(ownerUuid),
    queryFn: async ({ signal }): Promise<StakingData> => (await calls.get(ownerUuid, signal)).data,
  });
}

export interface StakingView {
  status: 'loading' | 'ready' | 'error';
  data: StakingData | null;
  error: string | null;
}

/** What the panel shows of the read: a failed refresh keeps the data shown (the library's). */
export function stakingView(read: Pick<QueryObserverResult<StakingData>, 'data' | 'error'>) {
  const data = read.data ?? null;
  const failed = data === null && read.error !== null && read.error !== undefined;
  return {
    status: data ? 'ready' : failed ? 'error' : 'loading',
    data,
    error: failed ? messageOf(read.error, 'Something went wrong') : null,
  } satisfies StakingView;
}

/**
 * The staking settings' actions over `state` (the store's valtio proxy); what they change on the
 * server is read again (or set) in `client`'s cache.
 */
export function stakingActions(state: StakingState, calls: StakingCalls, client: QueryClient) {
  async function run(
    ownerUuid: string,
    action: StakingAction,
    work: () => Promise<{ text: string; done: StakingDone }>,
  ): Promise<boolean> {
    if (state.busy) return false;
    Object.assign(state, { ownerUuid, busy: action });
    state.notice = null;
    try {
      const { text, done } = await work();
      state.notice = { action, tone: 'success', text, done };
      return true;
    } catch (failure) {
      state.notice = { action, tone: 'error', text: messageOf(failure, 'Something went wrong') };
      return false;
    } finally {
      state.busy = null;
    }
  }

  /**
   * Stakes or unstakes the typed amount with a fresh Idempotency-Key. Answers true when money
   * moved (the caller refreshes the wallet); the server's message, or its refusal, is the notice.
   */
  async function move(
    ownerUuid: string,
    action: 'stake' | 'unstake',
    amountText: string,
  ): Promise<boolean> {
    const amount = parseAmount(amountText);
    if ('error' in amount) {
      Object.assign(state, {
        ownerUuid,
        notice: { action, tone: 'error', text: amount.error, local: localProblem(amount.error) },
      });
      return false;
    }
    return run(ownerUuid, action, async () => {
      const call = action === 'stake' ? calls.stake : calls.unstake;
      const answer = await call(ownerUuid, amount.amountMicro, calls.newKey());
      await readAgain(stakingQueryKey(ownerUuid), client);
      return {
        text: answer.message,
        done: { kind: action === 'stake' ? 'staked' : 'unstaked', amountMicro: answer.amountMicro },
      };
    });
  }

  /** Saves the automatic stake percent typed in the form. */
  async function saveAuto(ownerUuid: string, percentText: string): Promise<boolean> {
    const parsed = parsePercent(percentText);
    if ('error' in parsed) {
      Object.assign(state, {
        ownerUuid,
        notice: {
          action: 'auto',
          tone: 'error',
          text: parsed.error,
          local: localProblem(parsed.error),
        },
      });
      return false;
    }
    return run(ownerUuid, 'auto', async () => {
      const answer = await calls.setAutoStake(ownerUuid, parsed.percent);
      client.setQueryData<StakingData>(
        stakingQueryKey(ownerUuid),
        (shown) => shown && { ...shown, autoStakePercent: answer.autoStakePercent },
      );
      return {
        text: answer.message,
        done: { kind: 'autoSaved', percent: answer.autoStakePercent },
      };
    });
  }

  /** The typed amount's own problem, shown at once (before a confirmation is asked). */
  function check(ownerUuid: string, action: 'stake' | 'unstake', amountText: string): boolean {
    const amount = parseAmount(amountText);
    if ('error' in amount) {
      Object.assign(state, {
        ownerUuid,
        notice: { action, tone: 'error', text: amount.error, local: localProblem(amount.error) },
      });
      return false;
    }
    return true;
  }

  return { move, saveAuto, check };
}
