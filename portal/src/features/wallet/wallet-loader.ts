import { WALLET_MESSAGES } from '@scn/proto';

/**
 * docs/product/states.md#subscription-and-reliability-states "Client wallet load: retried up to 3 times; if all fail, a wallet is created and
 * refetched", docs/product/constants.md#billing-and-the-economy "wallet retries 3 with 500 ms start and x1.5", and the error texts of
 * docs/product/messages.md#dashboard-messages. Pure: the calls and the wait are passed in, so the rules are testable.
 */

export const WALLET_LOAD_MESSAGES = {
  fetchFailed: WALLET_MESSAGES.fetchFailed,
  fetchAfterAttempts: 'Failed to fetch wallet data after multiple attempts',
  createFailed: WALLET_MESSAGES.createFailed,
  fetchAfterCreation: 'Failed to fetch wallet after creation',
} as const;

export interface RetryPolicy {
  /** Fetch attempts before giving up on the existing wallet (docs/product/constants.md#billing-and-the-economy: 3). */
  attempts: number;
  /** Wait before the first retry (500 ms), multiplied by `factor` (1.5) before each next one. */
  initialDelayMs: number;
  factor: number;
}

/** docs/product/constants.md#billing-and-the-economy: the client wallet's policy. */
export const CLIENT_WALLET_RETRY: RetryPolicy = { attempts: 3, initialDelayMs: 500, factor: 1.5 };
/** docs/product/calls.md#dashboard-calls: the node wallet is fetched once, then created if absent. */
export const NODE_WALLET_RETRY: RetryPolicy = { attempts: 1, initialDelayMs: 0, factor: 1 };

/** The waits between attempts: [500, 750] for three attempts. */
export function retryDelays(policy: RetryPolicy): number[] {
  return Array.from({ length: Math.max(0, policy.attempts - 1) }, (_, index) =>
    Math.round(policy.initialDelayMs * policy.factor ** index),
  );
}

export type WalletLoadMessageKey = keyof typeof WALLET_LOAD_MESSAGES;

/** A failed load; `key` names its message in the catalogue (`wallet:load.<key>`). */
export class WalletLoadError extends Error {
  constructor(readonly key: WalletLoadMessageKey) {
    super(WALLET_LOAD_MESSAGES[key]);
    this.name = 'WalletLoadError';
  }
}

/** A failure's HTTP status, when it has one (0 for the network). */
function statusOf(error: unknown): number | null {
  if (error && typeof error === 'object' && 'status' in error) {
    const { status } = error as { status: unknown };
    if (typeof status === 'number') return status;
  }
  return null;
}

/**
 * Only a missing wallet (404) or a failure that says nothing about the wallet (network, 5xx) is
 * worth creating one for; 400/401/403 would fail the same way after creation.
 */
function creationMayHelp(error: unknown): boolean {
  const status = statusOf(error);
  return status === null || status === 0 || status === 404 || status >= 500;
}

export interface WalletLoaderSteps<T> {
  fetch: () => Promise<T>;
  create: () => Promise<unknown>;
  sleep: (ms: number) => Promise<void>;
  /** Whether the caller still wants the result (the account changed, the view closed...). */
  isCancelled?: () => boolean;
}

export async function loadWalletWithRetry<T>(
  steps: WalletLoaderSteps<T>,
  policy: RetryPolicy,
): Promise<T> {
  const delays = retryDelays(policy);
  let lastError: unknown = null;
  for (let attempt = 0; attempt < policy.attempts; attempt += 1) {
    if (attempt > 0) await steps.sleep(delays[attempt - 1] ?? 0);
    if (steps.isCancelled?.()) throw new WalletLoadError('fetchFailed');
    try {
      return await steps.fetch();
    } catch (error) {
      lastError = error;
    }
  }
  if (!creationMayHelp(lastError)) {
    throw new WalletLoadError(policy.attempts > 1 ? 'fetchAfterAttempts' : 'fetchFailed');
  }
  try {
    await steps.create();
  } catch {
    throw new WalletLoadError('createFailed');
  }
  try {
    return await steps.fetch();
  } catch {
    throw new WalletLoadError('fetchAfterCreation');
  }
}
