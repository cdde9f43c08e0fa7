import { describe, expect, it } from '@jest/globals';
import {
  CLIENT_WALLET_RETRY,
  NODE_WALLET_RETRY,
  WALLET_LOAD_MESSAGES,
  loadWalletWithRetry,
  retryDelays,
} from './wallet-loader';

class HttpFailure extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

/** A scripted run: each fetch takes the next outcome; waits and calls are recorded. */
function script(fetches: (string | HttpFailure)[], createFails = false) {
  const calls: string[] = [];
  const queue = [...fetches];
  return {
    calls,
    steps: {
      fetch: async () => {
        calls.push('fetch');
        const next = queue.shift();
        if (next === undefined || next instanceof HttpFailure) throw next ?? new Error('no more');
        return next;
      },
      create: async () => {
        calls.push('create');
        if (createFails) throw new HttpFailure(500);
      },
      sleep: async (ms: number) => {
        calls.push(`sleep ${ms}`);
      },
    },
  };
}

describe('retryDelays', () => {
  it('should wait 500 ms, then 1.5 times longer before each next attempt', () => {
    expect(retryDelays(CLIENT_WALLET_RETRY)).toEqual([500, 750]);
    expect(retryDelays({ attempts: 4, initialDelayMs: 500, factor: 1.5 })).toEqual([
      500, 750, 1125,
    ]);
    expect(retryDelays(NODE_WALLET_RETRY)).toEqual([]);
  });
});

describe('loadWalletWithRetry', () => {
  it('should return the first wallet that loads, after waiting between failures', async () => {
    const run = script([new HttpFailure(500), new HttpFailure(0), 'wallet']);
    await expect(loadWalletWithRetry(run.steps, CLIENT_WALLET_RETRY)).resolves.toBe('wallet');
    expect(run.calls).toEqual(['fetch', 'sleep 500', 'fetch', 'sleep 750', 'fetch']);
  });

  it('should create the wallet and fetch it again when every attempt fails', async () => {
    const run = script([new HttpFailure(404), new HttpFailure(404), new HttpFailure(404), 'new']);
    await expect(loadWalletWithRetry(run.steps, CLIENT_WALLET_RETRY)).resolves.toBe('new');
    expect(run.calls).toEqual([
      'fetch',
      'sleep 500',
      'fetch',
      'sleep 750',
      'fetch',
      'create',
      'fetch',
    ]);
  });

  it("should say 'Failed to create wallet' when the creation fails", async () => {
    const run = script([new HttpFailure(500), new HttpFailure(500), new HttpFailure(500)], true);
    await expect(loadWalletWithRetry(run.steps, CLIENT_WALLET_RETRY)).rejects.toThrow(
      WALLET_LOAD_MESSAGES.createFailed,
    );
  });

  it("should say 'Failed to fetch wallet after creation' when the refetch fails", async () => {
    const run = script([new HttpFailure(500), new HttpFailure(500), new HttpFailure(500)]);
    await expect(loadWalletWithRetry(run.steps, CLIENT_WALLET_RETRY)).rejects.toThrow(
      'Failed to fetch wallet after creation',
    );
    expect(run.calls.filter((call) => call === 'fetch')).toHaveLength(4);
  });

  it('should not create a wallet when the failures are about the session, not the wallet', async () => {
    const run = script([new HttpFailure(401), new HttpFailure(401), new HttpFailure(403)]);
    await expect(loadWalletWithRetry(run.steps, CLIENT_WALLET_RETRY)).rejects.toThrow(
      'Failed to fetch wallet data after multiple attempts',
    );
    expect(run.calls).not.toContain('create');
  });

  it('should fetch a node wallet once, then create it if that fails', async () => {
    const run = script([new HttpFailure(404), 'node wallet']);
    await expect(loadWalletWithRetry(run.steps, NODE_WALLET_RETRY)).resolves.toBe('node wallet');
    expect(run.calls).toEqual(['fetch', 'create', 'fetch']);

    const denied = script([new HttpFailure(403)]);
    await expect(loadWalletWithRetry(denied.steps, NODE_WALLET_RETRY)).rejects.toThrow(
      /^Failed to fetch wallet data$/,
    );
  });

  it('should stop when the caller no longer wants the result', async () => {
    let cancelled = false;
    const run = script([new HttpFailure(500), 'late']);
    const result = loadWalletWithRetry(
      {
        ...run.steps,
        sleep: async () => {
          cancelled = true;
        },
        isCancelled: () => cancelled,
      },
      CLIENT_WALLET_RETRY,
    );
    await expect(result).rejects.toThrow();
    expect(run.calls).toEqual(['fetch']);
  });
});
