import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../lib/api-error';
import {
  giveConsent,
  isServerReplaced,
  readConsent,
  reportFailure,
  withdrawConsent,
} from './reachability-report';

/** A Storage over a Map, as the browser's localStorage behaves for these three calls. */
function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

describe('reachability consent', () => {
  it('should have no consent until the client gives it', () => {
    expect(readConsent(memoryStorage())).toBeNull();
  });

  it('should remember the moment of consent and forget it when withdrawn', () => {
    const storage = memoryStorage();
    const given = giveConsent(storage, new Date('2026-11-28T10:00:00Z'));
    expect(given).toBe('2026-11-28T10:00:00.000Z');
    expect(readConsent(storage)).toBe(given);
    withdrawConsent(storage);
    expect(readConsent(storage)).toBeNull();
    expect(storage.items.size).toBe(0);
  });

  it('should not count a value that is no date as consent', () => {
    const storage = memoryStorage();
    storage.setItem('reachabilityConsent', 'yes');
    expect(readConsent(storage)).toBeNull();
  });

  it('should give no consent when storage throws', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    expect(readConsent(broken)).toBeNull();
    expect(giveConsent(broken, new Date(0))).toBe('1970-01-01T00:00:00.000Z');
    expect(() => withdrawConsent(broken)).not.toThrow();
  });
});

describe('reportFailure', () => {
  it('should say how many minutes to wait after a rate limit', () => {
    const error = new ApiError('Too many', 429, 'common.rate_limited', { retryAfterSeconds: 61 });
    expect(reportFailure(error)).toEqual({ kind: 'rateLimited', minutes: 2 });
    expect(reportFailure(new ApiError('Too many', 429))).toEqual({
      kind: 'rateLimited',
      minutes: 1,
    });
  });

  it('should call 403 and 404 a refusal', () => {
    expect(reportFailure(new ApiError('not yours', 403))).toEqual({ kind: 'refused' });
    expect(reportFailure(new ApiError('gone', 404))).toEqual({ kind: 'refused' });
  });

  it('should call anything else a failure to try again', () => {
    expect(reportFailure(new ApiError('boom', 500))).toEqual({ kind: 'failed' });
    expect(reportFailure(new ApiError('offline', 0))).toEqual({ kind: 'failed' });
    expect(reportFailure(new Error('parse'))).toEqual({ kind: 'failed' });
  });
});

describe('isServerReplaced', () => {
  it('should read only the server_replaced reason', () => {
    expect(isServerReplaced({ reason: 'server_replaced' })).toBe(true);
    expect(isServerReplaced({ reason: 'other' })).toBe(false);
    expect(isServerReplaced(undefined)).toBe(false);
    expect(isServerReplaced('server_replaced')).toBe(false);
  });
});
