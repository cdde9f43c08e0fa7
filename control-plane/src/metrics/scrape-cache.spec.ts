import { ScrapeCache } from './scrape-cache';

function cacheOf(load: () => Promise<number>, clock: { t: number }, failed = jest.fn()) {
  return new ScrapeCache(load, {
    ttlMs: 15_000,
    waitMs: 50,
    maxAgeMs: 60_000,
    failed,
    now: () => clock.t,
  });
}

describe('ScrapeCache', () => {
  it('should load once per ttl however often it is read', async () => {
    const clock = { t: 0 };
    let loads = 0;
    const cache = cacheOf(() => Promise.resolve(++loads), clock);
    expect(await cache.get()).toBe(1);
    clock.t = 14_999;
    expect(await cache.get()).toBe(1);
    clock.t = 15_000;
    expect(await cache.get()).toBe(2);
    expect(loads).toBe(2);
  });

  it('should serve the last value when a load fails, and count the failure', async () => {
    const clock = { t: 0 };
    let fail = false;
    const failed = jest.fn();
    const cache = cacheOf(
      () => (fail ? Promise.reject(new Error('down')) : Promise.resolve(7)),
      clock,
      failed,
    );
    expect(await cache.get()).toBe(7);
    fail = true;
    clock.t = 20_000;
    expect(await cache.get()).toBe(7);
    expect(failed).toHaveBeenCalledTimes(1);
  });

  it('should serve nothing once the last value is older than maxAgeMs', async () => {
    const clock = { t: 0 };
    let fail = false;
    const cache = cacheOf(
      () => (fail ? Promise.reject(new Error('down')) : Promise.resolve(7)),
      clock,
    );
    expect(await cache.get()).toBe(7);
    fail = true;
    clock.t = 60_000;
    expect(await cache.get()).toBeNull();
  });

  it('should not keep a scrape waiting on a load that hangs, nor start a second one', async () => {
    const clock = { t: 0 };
    let loads = 0;
    const cache = cacheOf(() => {
      loads += 1;
      return new Promise<number>(() => undefined);
    }, clock);
    expect(await cache.get()).toBeNull();
    expect(await cache.get()).toBeNull();
    expect(loads).toBe(1);
  });
});
