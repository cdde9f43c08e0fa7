import {
  type AutoStakeResponse,
  STAKING_MESSAGES,
  type StakeMoveResponse,
  type StakingData,
  type StakingResponse,
} from '@scn/proto';
import { parseAmount, parsePercent } from './staking-format';
import { messageOf } from '../../lib/error-message';

export type StakingAction = 'stake' | 'unstake' | 'auto';

export interface StakingState {
  /** The account whose staking is held; another account starts from scratch. */
  ownerUuid: string | null;
  status: 'idle' | 'loading' | 'ready' | 'error';
  data: StakingData | null;
  error: string | null;
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
  status: 'idle',
  data: null,
  error: null,
  busy: null,
  notice: null,
});

/** The calls the actions make (the feature's api/, or a test's fakes). */
export interface StakingCalls {
  get(ownerUuid: string): Promise<StakingResponse>;
  stake(ownerUuid: string, amountMicro: string, idempotencyKey: string): Promise<StakeMoveResponse>;
  unstake(
    ownerUuid: string,
    amountMicro: string,
    idempotencyKey: string,
  ): Promise<StakeMoveResponse>;
  setAutoStake(ownerUuid: string, percent: number): Promise<AutoStakeResponse>;
  newKey(): string;
}

/** The staking settings' actions over `state` (the store's valtio proxy). */
export function stakingActions(state: StakingState, calls: StakingCalls) {
  let generation = 0;

  /** Loads the staking settings; a refresh keeps what is shown when it fails. */
  async function load(ownerUuid: string): Promise<void> {
    if (state.ownerUuid !== ownerUuid) Object.assign(state, initialStakingState(), { ownerUuid });
    generation += 1;
    const mine = generation;
    const current = () => generation === mine && state.ownerUuid === ownerUuid;
    if (state.status !== 'ready') state.status = 'loading';
    try {
      const { data } = await calls.get(ownerUuid);
      if (current()) Object.assign(state, { data, status: 'ready', error: null });
    } catch (failure) {
      if (current() && state.status !== 'ready')
        Object.assign(state, {
          status: 'error',
          error: messageOf(failure, 'Something went wrong'),
        });
    }
  }

  async function run(
    action: StakingAction,
    work: () => Promise<{ text: string; done: StakingDone }>,
  ): Promise<boolean> {
    if (state.busy) return false;
    state.busy = action;
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
      state.notice = {
        action,
        tone: 'error',
        text: amount.error,
        local: localProblem(amount.error),
      };
      return false;
    }
    return run(action, async () => {
      const call = action === 'stake' ? calls.stake : calls.unstake;
      const answer = await call(ownerUuid, amount.amountMicro, calls.newKey());
      await load(ownerUuid);
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
      state.notice = {
        action: 'auto',
        tone: 'error',
        text: parsed.error,
        local: localProblem(parsed.error),
      };
      return false;
    }
    return run('auto', async () => {
      const answer = await calls.setAutoStake(ownerUuid, parsed.percent);
      if (state.data) state.data.autoStakePercent = answer.autoStakePercent;
      return {
        text: answer.message,
        done: { kind: 'autoSaved', percent: answer.autoStakePercent },
      };
    });
  }

  /** The typed amount's own problem, shown at once (before a confirmation is asked). */
  function check(action: 'stake' | 'unstake', amountText: string): boolean {
    const amount = parseAmount(amountText);
    if ('error' in amount) {
      state.notice = {
        action,
        tone: 'error',
        text: amount.error,
        local: localProblem(amount.error),
      };
      return false;
    }
    return true;
  }

  return { load, move, saveAuto, check };
}
