import { describe, expect, it, jest } from '@jest/globals';
import type {
  AutoStakeResponse,
  StakeMoveResponse,
  StakingData,
  StakingResponse,
} from '@scn/proto';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import {
  initialStakingState,
  type StakingCalls,
  stakingActions,
  stakingQuery,
  stakingQueryKey,
  stakingView,
} from './staking-actions';

const data = (stakeMicro: string): StakingData =>
  ({ stakeMicro, autoStakePercent: 0 }) as unknown as StakingData;
const found = (stakeMicro: string): StakingResponse => ({ success: true, data: data(stakeMicro) });
const moved = (message: string): StakeMoveResponse => ({
  success: true,
  message,
  transactionId: 't',
  amountMicro: '1',
  stakeMicro: '1',
  nodeWalletMicro: '0',
});

function setup() {
  let keys = 0;
  const calls = {
    get: jest.fn<StakingCalls['get']>(),
    stake: jest.fn<StakingCalls['stake']>(),
    unstake: jest.fn<StakingCalls['unstake']>(),
    setAutoStake: jest.fn<StakingCalls['setAutoStake']>(),
    newKey: () => `key-${(keys += 1)}`,
  };
  const state = initialStakingState();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  type Observer = QueryObserver<
    StakingData,
    Error,
    StakingData,
    StakingData,
    ReturnType<typeof stakingQueryKey>
  >;
  let observer: Observer | null = null;
  const stops: (() => void)[] = [];
  /** The panel shows `ownerUuid`'s staking: its observer reads it. */
  const show = (ownerUuid: string) => {
    if (observer) observer.setOptions(stakingQuery(ownerUuid, calls));
    else {
      observer = new QueryObserver(client, stakingQuery(ownerUuid, calls));
      stops.push(observer.subscribe(() => undefined));
    }
  };
  const view = () => {
    if (!observer) throw new Error('nothing shown');
    return stakingView(observer.getCurrentResult());
  };
  const settled = () => until(() => client.isFetching() === 0);
  const reload = async () => {
    await observer?.refetch();
    await settled();
  };
  return {
    state,
    calls,
    client,
    show,
    view,
    settled,
    reload,
    stop: () => stops.forEach((stop) => stop()),
    actions: stakingActions(state, calls, client),
  };
}

/** Waits (in turns of the event loop) until `done` holds; fails after a second. */
async function until(done: () => boolean): Promise<void> {
  const giveUp = Date.now() + 1000;
  while (!done()) {
    if (Date.now() > giveUp) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

describe('staking query', () => {
  it('should show the error of a first load, and keep the data when a refresh fails', async () => {
    const { calls, show, view, settled, reload, stop } = setup();
    calls.get.mockRejectedValueOnce(new Error('Failed to fetch staking data'));
    show('op');
    await settled();
    expect(view()).toMatchObject({ status: 'error', error: 'Failed to fetch staking data' });
    calls.get.mockResolvedValueOnce(found('5'));
    await reload();
    expect(view()).toMatchObject({ status: 'ready', data: { stakeMicro: '5' } });
    calls.get.mockRejectedValueOnce(new Error('down'));
    await reload();
    expect(calls.get).toHaveBeenCalledTimes(3);
    expect(view()).toMatchObject({ status: 'ready', data: { stakeMicro: '5' }, error: null });
    stop();
  });

  it('should start from scratch for another account and drop a superseded answer', async () => {
    const { calls, client, show, view, settled, stop } = setup();
    calls.get.mockResolvedValueOnce(found('5'));
    show('a');
    await settled();
    let release: (value: StakingResponse) => void = () => undefined;
    calls.get.mockReturnValueOnce(new Promise((resolve) => (release = resolve)));
    const slow = client.refetchQueries({ queryKey: stakingQueryKey('a') });
    let answerB: (value: StakingResponse) => void = () => undefined;
    calls.get.mockReturnValueOnce(new Promise((resolve) => (answerB = resolve)));
    show('b');
    // Nothing of account a is shown while b's is read.
    expect(view()).toMatchObject({ status: 'loading', data: null });
    answerB(found('9'));
    release(found('7'));
    await slow;
    await settled();
    expect(view()).toMatchObject({ status: 'ready', data: { stakeMicro: '9' } });
    stop();
  });
});

describe('move', () => {
  it('should refuse a malformed amount without calling the server', async () => {
    const { state, calls, actions } = setup();
    expect(await actions.move('op', 'stake', '1.0000001')).toBe(false);
    expect(calls.stake).not.toHaveBeenCalled();
    expect(state.notice).toMatchObject({ action: 'stake', tone: 'error' });
  });

  it('should stake in micro-SSL with a fresh key each time, reload and show the server’s message', async () => {
    const extra = setup();
    const { state, calls, actions } = extra;
    const { show, view, settled, stop } = extra;
    calls.get.mockResolvedValueOnce(found('0'));
    show('op');
    await settled();
    calls.stake.mockResolvedValue(moved('Staked 12.50 SSL'));
    calls.get.mockResolvedValue(found('12500000'));
    expect(await actions.move('op', 'stake', '12.5')).toBe(true);
    expect(await actions.move('op', 'stake', '1')).toBe(true);
    expect(calls.stake.mock.calls).toEqual([
      ['op', '12500000', 'key-1'],
      ['op', '1000000', 'key-2'],
    ]);
    expect(state).toMatchObject({
      ownerUuid: 'op',
      busy: null,
      notice: { action: 'stake', tone: 'success', text: 'Staked 12.50 SSL' },
    });
    // The move read the staking again before it answered.
    expect(view()).toMatchObject({ status: 'ready', data: { stakeMicro: '12500000' } });
    stop();
  });

  it('should show the server’s refusal of an unstake as is, and ignore a click while busy', async () => {
    const { state, calls, actions } = setup();
    let refuse: (error: Error) => void = () => undefined;
    calls.unstake.mockReturnValueOnce(new Promise((_, reject) => (refuse = reject)));
    const first = actions.move('op', 'unstake', '6');
    expect(state.busy).toBe('unstake');
    expect(await actions.move('op', 'stake', '1')).toBe(false);
    refuse(new Error('Only 0.00 SSL of your stake is unlocked'));
    expect(await first).toBe(false);
    expect(calls.stake).not.toHaveBeenCalled();
    expect(state.notice).toEqual({
      action: 'unstake',
      tone: 'error',
      text: 'Only 0.00 SSL of your stake is unlocked',
    });
  });
});

describe('saveAuto', () => {
  it('should save a whole percent and refuse anything else before calling', async () => {
    const { state, calls, client, actions } = setup();
    expect(await actions.saveAuto('op', '150')).toBe(false);
    expect(calls.setAutoStake).not.toHaveBeenCalled();
    const answer: AutoStakeResponse = {
      success: true,
      message: 'Automatic staking set to 50% of each payout',
      autoStakePercent: 50,
    };
    calls.setAutoStake.mockResolvedValueOnce(answer);
    client.setQueryData(stakingQueryKey('op'), data('0'));
    expect(await actions.saveAuto('op', '50')).toBe(true);
    expect(calls.setAutoStake).toHaveBeenCalledWith('op', 50);
    expect(client.getQueryData<StakingData>(stakingQueryKey('op'))?.autoStakePercent).toBe(50);
    expect(calls.get).not.toHaveBeenCalled();
    expect(state.notice).toMatchObject({ tone: 'success', text: answer.message });
  });
});
