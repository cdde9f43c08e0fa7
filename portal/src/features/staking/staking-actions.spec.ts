import { describe, expect, it, jest } from '@jest/globals';
import type {
  AutoStakeResponse,
  StakeMoveResponse,
  StakingData,
  StakingResponse,
} from '@scn/proto';
import { initialStakingState, type StakingCalls, stakingActions } from './staking-actions';

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
  return { state, calls, actions: stakingActions(state, calls) };
}

describe('load', () => {
  it('should show the error of a first load, and keep the data when a refresh fails', async () => {
    const { state, calls, actions } = setup();
    calls.get.mockRejectedValueOnce(new Error('Failed to fetch staking data'));
    await actions.load('op');
    expect(state).toMatchObject({ status: 'error', error: 'Failed to fetch staking data' });
    calls.get.mockResolvedValueOnce(found('5'));
    await actions.load('op');
    expect(state).toMatchObject({ status: 'ready', data: { stakeMicro: '5' } });
    calls.get.mockRejectedValueOnce(new Error('down'));
    await actions.load('op');
    expect(state).toMatchObject({ status: 'ready', data: { stakeMicro: '5' }, error: null });
  });

  it('should start from scratch for another account and drop a superseded answer', async () => {
    const { state, calls, actions } = setup();
    calls.get.mockResolvedValueOnce(found('5'));
    await actions.load('a');
    let release: (value: StakingResponse) => void = () => undefined;
    calls.get.mockReturnValueOnce(new Promise((resolve) => (release = resolve)));
    const slow = actions.load('a');
    calls.get.mockResolvedValueOnce(found('9'));
    await actions.load('b');
    release(found('7'));
    await slow;
    expect(state).toMatchObject({ ownerUuid: 'b', data: { stakeMicro: '9' } });
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
    const { state, calls, actions } = setup();
    calls.stake.mockResolvedValue(moved('Staked 12.50 SSL'));
    calls.get.mockResolvedValue(found('12500000'));
    expect(await actions.move('op', 'stake', '12.5')).toBe(true);
    expect(await actions.move('op', 'stake', '1')).toBe(true);
    expect(calls.stake.mock.calls).toEqual([
      ['op', '12500000', 'key-1'],
      ['op', '1000000', 'key-2'],
    ]);
    expect(state).toMatchObject({
      busy: null,
      notice: { action: 'stake', tone: 'success', text: 'Staked 12.50 SSL' },
      data: { stakeMicro: '12500000' },
    });
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
    const { state, calls, actions } = setup();
    expect(await actions.saveAuto('op', '150')).toBe(false);
    expect(calls.setAutoStake).not.toHaveBeenCalled();
    const answer: AutoStakeResponse = {
      success: true,
      message: 'Automatic staking set to 50% of each payout',
      autoStakePercent: 50,
    };
    calls.setAutoStake.mockResolvedValueOnce(answer);
    state.data = data('0');
    expect(await actions.saveAuto('op', '50')).toBe(true);
    expect(calls.setAutoStake).toHaveBeenCalledWith('op', 50);
    expect(state.data.autoStakePercent).toBe(50);
    expect(state.notice).toMatchObject({ tone: 'success', text: answer.message });
  });
});
