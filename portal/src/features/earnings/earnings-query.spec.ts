import { describe, expect, it, jest } from '@jest/globals';
import type { Earnings, EarningsResponse } from '@scn/proto';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { readAgain } from '../../lib/query-client';
import {
  type EarningsCalls,
  earningsQuery,
  earningsQueryKey,
  earningsView,
} from './earnings-query';

const answer = (period: string, kind: Earnings['kind'] = 'statement'): EarningsResponse => ({
  success: true,
  earnings: { period, kind } as unknown as Earnings,
});

/** A call that answers when the test says. */
function deferred() {
  let settle!: (value: EarningsResponse) => void;
  const promise = new Promise<EarningsResponse>((resolve) => (settle = resolve));
  return { promise, settle };
}

/** Waits (in turns of the event loop) until `done` holds; fails after a second. */
async function until(done: () => boolean): Promise<void> {
  const giveUp = Date.now() + 1000;
  while (!done()) {
    if (Date.now() > giveUp) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/**
 * The earnings section as the panel runs it: one observer of the current month, one of the
 * month asked for, and the view made of both.
 */
function setup() {
  const get = jest.fn<EarningsCalls['get']>();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  let owner = '';
  let period: string | null = null;
  type Observer = QueryObserver<
    Earnings,
    Error,
    Earnings,
    Earnings,
    ReturnType<typeof earningsQueryKey>
  >;
  let observers: [Observer, Observer] | null = null;
  const stops: (() => void)[] = [];
  const show = (ownerUuid: string, month: string | null = null) => {
    owner = ownerUuid;
    period = month;
    if (!observers) {
      observers = [
        new QueryObserver(client, earningsQuery(ownerUuid, null, { get })),
        new QueryObserver(client, earningsQuery(ownerUuid, month, { get })),
      ];
      stops.push(...observers.map((observer) => observer.subscribe(() => undefined)));
      return;
    }
    observers[0].setOptions(earningsQuery(ownerUuid, null, { get }));
    observers[1].setOptions(earningsQuery(ownerUuid, month, { get }));
  };
  const view = () => {
    if (!observers) throw new Error('nothing shown');
    return earningsView(period, observers[0].getCurrentResult(), observers[1].getCurrentResult());
  };
  const settled = () => until(() => client.isFetching() === 0);
  const reload = () => readAgain(earningsQueryKey(owner, period), client);
  return { get, client, show, view, settled, reload, stop: () => stops.forEach((stop) => stop()) };
}

describe('earnings query', () => {
  it('should ask for the current month first and take its period as the latest', async () => {
    const { get, show, view, settled, stop } = setup();
    get.mockResolvedValue(answer('2026-04', 'dry_run'));
    show('op');
    await settled();
    expect(get).toHaveBeenCalledTimes(1);
    expect(get.mock.calls[0]?.slice(0, 2)).toEqual(['op', undefined]);
    expect(view()).toMatchObject({
      status: 'ready',
      period: '2026-04',
      latestPeriod: '2026-04',
      data: { period: '2026-04', kind: 'dry_run' },
    });
    stop();
  });

  it('should show the loading state for another month, and keep the latest month', async () => {
    const { get, show, view, settled, stop } = setup();
    get.mockResolvedValueOnce(answer('2026-04', 'dry_run'));
    show('op');
    await settled();
    const call = deferred();
    get.mockReturnValueOnce(call.promise);
    show('op', '2026-03');
    expect(view()).toMatchObject({ status: 'loading', data: null, period: '2026-03' });
    call.settle(answer('2026-03'));
    await settled();
    expect(view()).toMatchObject({ status: 'ready', latestPeriod: '2026-04' });
    expect(view().data?.period).toBe('2026-03');
    stop();
  });

  it('should take a later month the server answers as the latest (its clock moved on)', async () => {
    const { get, show, view, settled, stop } = setup();
    get.mockResolvedValueOnce(answer('2026-04', 'dry_run'));
    show('op');
    await settled();
    get.mockResolvedValueOnce(answer('2026-05', 'dry_run'));
    show('op', '2026-05');
    await settled();
    expect(view().latestPeriod).toBe('2026-05');
    stop();
  });

  it('should show the error of a load, and Try Again asks for the same month', async () => {
    const { get, show, view, settled, reload, stop } = setup();
    get.mockResolvedValueOnce(answer('2026-04', 'dry_run'));
    get.mockRejectedValueOnce(new Error('Failed to load your earnings'));
    show('op', '2026-02');
    await settled();
    expect(view()).toMatchObject({
      status: 'error',
      error: 'Failed to load your earnings',
      data: null,
    });
    get.mockResolvedValueOnce(answer('2026-02'));
    await reload();
    await settled();
    expect(get.mock.lastCall?.slice(0, 2)).toEqual(['op', '2026-02']);
    expect(view()).toMatchObject({ status: 'ready', error: null });
    stop();
  });

  it('should keep what is shown when a refresh of the same month fails', async () => {
    const { get, show, view, settled, reload, stop } = setup();
    get.mockResolvedValueOnce(answer('2026-04', 'dry_run'));
    show('op');
    await settled();
    get.mockRejectedValueOnce(new Error('offline'));
    await reload();
    await settled();
    expect(get).toHaveBeenCalledTimes(2);
    expect(get.mock.lastCall?.slice(0, 2)).toEqual(['op', undefined]);
    expect(view()).toMatchObject({ status: 'ready', error: null });
    expect(view().data?.period).toBe('2026-04');
    stop();
  });

  it('should keep only the answer of the last month asked for', async () => {
    const { get, show, view, settled, stop } = setup();
    get.mockResolvedValueOnce(answer('2026-04', 'dry_run'));
    show('op');
    await settled();
    const slow = deferred();
    get.mockReturnValueOnce(slow.promise);
    show('op', '2026-01');
    get.mockResolvedValueOnce(answer('2026-02'));
    show('op', '2026-02');
    slow.settle(answer('2026-01'));
    await settled();
    expect(view().data?.period).toBe('2026-02');
    expect(view().period).toBe('2026-02');
    stop();
  });

  it("should start from scratch for another account and never show the last one's figures", async () => {
    const { get, show, view, settled, stop } = setup();
    get.mockResolvedValueOnce(answer('2026-04'));
    show('op-1');
    await settled();
    const call = deferred();
    get.mockReturnValueOnce(call.promise);
    show('op-2');
    expect(view()).toMatchObject({ data: null, latestPeriod: null, status: 'loading' });
    call.settle(answer('2026-04', 'dry_run'));
    await settled();
    expect(view()).toMatchObject({ latestPeriod: '2026-04', data: { kind: 'dry_run' } });
    stop();
  });
});
