import { describe, expect, it, jest } from '@jest/globals';
import type { Earnings, EarningsResponse } from '@scn/proto';
import { type EarningsCalls, earningsActions, initialEarningsState } from './earnings-actions';

const answer = (period: string, kind: Earnings['kind'] = 'statement'): EarningsResponse => ({
  success: true,
  earnings: { period, kind } as unknown as Earnings,
});

function setup() {
  const get = jest.fn<EarningsCalls['get']>();
  const state = initialEarningsState();
  return { state, get, actions: earningsActions(state, { get }) };
}

/** A call that answers when the test says. */
function deferred() {
  let settle!: (value: EarningsResponse) => void;
  const promise = new Promise<EarningsResponse>((resolve) => (settle = resolve));
  return { promise, settle };
}

describe('load', () => {
  it('should ask for the current month first and take its period as the latest', async () => {
    const { state, get, actions } = setup();
    get.mockResolvedValueOnce(answer('2026-04', 'dry_run'));
    await actions.load('op');
    expect(get).toHaveBeenCalledWith('op', undefined);
    expect(state).toMatchObject({
      status: 'ready',
      period: null,
      latestPeriod: '2026-04',
      data: { period: '2026-04', kind: 'dry_run' },
    });
  });

  it('should show the loading state for another month, and keep the latest month', async () => {
    const { state, get, actions } = setup();
    get.mockResolvedValueOnce(answer('2026-04', 'dry_run'));
    await actions.load('op');
    const call = deferred();
    get.mockReturnValueOnce(call.promise);
    const loading = actions.load('op', '2026-03');
    expect(state).toMatchObject({ status: 'loading', data: null, period: '2026-03' });
    call.settle(answer('2026-03'));
    await loading;
    expect(state).toMatchObject({ status: 'ready', latestPeriod: '2026-04' });
    expect(state.data?.period).toBe('2026-03');
  });

  it('should take a later month the server answers as the latest (its clock moved on)', async () => {
    const { state, get, actions } = setup();
    get.mockResolvedValueOnce(answer('2026-04', 'dry_run'));
    await actions.load('op');
    get.mockResolvedValueOnce(answer('2026-05', 'dry_run'));
    await actions.load('op', '2026-05');
    expect(state.latestPeriod).toBe('2026-05');
  });

  it('should show the error of a load, and Try Again asks for the same month', async () => {
    const { state, get, actions } = setup();
    get.mockRejectedValueOnce(new Error('Failed to load your earnings'));
    await actions.load('op', '2026-02');
    expect(state).toMatchObject({
      status: 'error',
      error: 'Failed to load your earnings',
      data: null,
    });
    get.mockResolvedValueOnce(answer('2026-02'));
    await actions.reload('op');
    expect(get).toHaveBeenLastCalledWith('op', '2026-02');
    expect(state).toMatchObject({ status: 'ready', error: null });
  });

  it('should keep what is shown when a refresh of the same month fails', async () => {
    const { state, get, actions } = setup();
    get.mockResolvedValueOnce(answer('2026-04', 'dry_run'));
    await actions.load('op');
    get.mockRejectedValueOnce(new Error('offline'));
    await actions.reload('op');
    expect(get).toHaveBeenLastCalledWith('op', undefined);
    expect(state).toMatchObject({ status: 'ready', error: null });
    expect(state.data?.period).toBe('2026-04');
  });

  it('should keep only the answer of the last month asked for', async () => {
    const { state, get, actions } = setup();
    const slow = deferred();
    get.mockReturnValueOnce(slow.promise);
    const first = actions.load('op', '2026-01');
    get.mockResolvedValueOnce(answer('2026-02'));
    await actions.load('op', '2026-02');
    slow.settle(answer('2026-01'));
    await first;
    expect(state.data?.period).toBe('2026-02');
    expect(state.period).toBe('2026-02');
  });

  it("should start from scratch for another account and never show the last one's figures", async () => {
    const { state, get, actions } = setup();
    get.mockResolvedValueOnce(answer('2026-04'));
    await actions.load('op-1', '2026-04');
    const call = deferred();
    get.mockReturnValueOnce(call.promise);
    const loading = actions.load('op-2');
    expect(state).toMatchObject({ ownerUuid: 'op-2', data: null, latestPeriod: null });
    call.settle(answer('2026-04', 'dry_run'));
    await loading;
    expect(state).toMatchObject({ ownerUuid: 'op-2', latestPeriod: '2026-04' });
  });
});
