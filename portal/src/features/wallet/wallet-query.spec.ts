import { describe, expect, it } from '@jest/globals';
import type { WalletData } from '@scn/proto';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { readAgain } from '../../lib/query-client';
import { WalletLoadError } from './wallet-loader';
import { type WalletCalls, walletQuery, walletQueryKey } from './wallet-query';

class HttpFailure extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

const wallet = (balanceMicro: string) => ({ balanceMicro }) as unknown as WalletData;

/** Calls whose fetches answer from `answers` in turn (a function: answered when it resolves). */
function fakeCalls(answers: (WalletData | Error | (() => Promise<WalletData>))[]) {
  const log: string[] = [];
  const calls: WalletCalls = {
    fetch: async () => {
      log.push('fetch');
      const next = answers.shift();
      if (next === undefined) throw new Error('no more answers');
      if (next instanceof Error) throw next;
      return typeof next === 'function' ? next() : next;
    },
    create: async () => {
      log.push('create');
    },
    sleep: async (ms) => {
      log.push(`sleep ${ms}`);
    },
  };
  return { calls, log };
}

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** Waits (in turns of the event loop) until `done` holds; fails after a second. */
async function until(done: () => boolean): Promise<void> {
  const giveUp = Date.now() + 1000;
  while (!done()) {
    if (Date.now() > giveUp) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

const newClient = () =>
  new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity } } });

describe('walletQuery', () => {
  it('should retry, then create the wallet when the first read of an account finds none', async () => {
    const client = newClient();
    const { calls, log } = fakeCalls([
      new HttpFailure(404),
      new HttpFailure(404),
      new HttpFailure(404),
      wallet('5'),
    ]);
    await expect(client.fetchQuery(walletQuery('client', 'u1', calls))).resolves.toEqual(
      wallet('5'),
    );
    expect(log).toEqual(['fetch', 'sleep 500', 'fetch', 'sleep 750', 'fetch', 'create', 'fetch']);
  });

  it("should fail with the spec's message key when the first read cannot be made", async () => {
    const client = newClient();
    const { calls } = fakeCalls([new HttpFailure(403)]);
    const failure = await client
      .fetchQuery(walletQuery('node', 'u1', calls))
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WalletLoadError);
    expect((failure as WalletLoadError).key).toBe('fetchFailed');
    expect(client.getQueryData(walletQueryKey('node', 'u1'))).toBeUndefined();
  });

  it('should read once and keep the shown wallet when a later read fails', async () => {
    const client = newClient();
    const { calls, log } = fakeCalls([wallet('5'), new HttpFailure(500)]);
    const options = walletQuery('client', 'u1', calls);
    await client.fetchQuery(options);
    await expect(client.fetchQuery({ ...options, staleTime: 0 })).rejects.toThrow('HTTP 500');
    // One plain read: no retry, no creation, when a wallet was already shown.
    expect(log).toEqual(['fetch', 'fetch']);
    expect(client.getQueryData(options.queryKey)).toEqual(wallet('5'));
  });

  it('should keep only the last answer when a read supersedes a first read in flight', async () => {
    const client = newClient();
    const first = deferred<WalletData>();
    const { calls, log } = fakeCalls([() => first.promise, wallet('new')]);
    const options = walletQuery('client', 'u1', calls);
    // The panel shows the wallet: its observer starts the first read.
    const seen: (WalletData | undefined)[] = [];
    const stop = new QueryObserver(client, options).subscribe((result) => seen.push(result.data));
    await until(() => log.length === 1);
    await readAgain(options.queryKey, client);
    first.resolve(wallet('old'));
    await until(() => client.getQueryState(options.queryKey)?.fetchStatus === 'idle');
    await first.promise;
    expect(client.getQueryData(options.queryKey)).toEqual(wallet('new'));
    expect(seen).not.toContainEqual(wallet('old'));
    stop();
  });

  it('should keep only the last answer when a refresh supersedes one in flight', async () => {
    const client = newClient();
    const late = deferred<WalletData>();
    const { calls } = fakeCalls([wallet('first'), () => late.promise, wallet('newest')]);
    const options = walletQuery('client', 'u1', calls);
    const stop = new QueryObserver(client, options).subscribe(() => undefined);
    await until(() => client.getQueryData(options.queryKey) !== undefined);
    void client.refetchQueries({ queryKey: options.queryKey });
    await readAgain(options.queryKey, client);
    late.resolve(wallet('stale'));
    await late.promise;
    await until(() => client.getQueryState(options.queryKey)?.fetchStatus === 'idle');
    expect(client.getQueryData(options.queryKey)).toEqual(wallet('newest'));
    stop();
  });

  it("should hold each account's wallet apart when another account signs in", async () => {
    const client = newClient();
    const { calls } = fakeCalls([wallet('mine'), wallet('theirs')]);
    await client.fetchQuery(walletQuery('client', 'u1', calls));
    await client.fetchQuery(walletQuery('client', 'u2', calls));
    expect(client.getQueryData(walletQueryKey('client', 'u1'))).toEqual(wallet('mine'));
    expect(client.getQueryData(walletQueryKey('client', 'u2'))).toEqual(wallet('theirs'));
  });
});
