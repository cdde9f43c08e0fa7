import { MarketPageCache } from './market-page-cache';

describe('MarketPageCache', () => {
  let now = 0;
  const cache = () => new MarketPageCache<string>(1000, 3, () => now);

  beforeEach(() => {
    now = 0;
  });

  it('should reuse a page while the version is the same and the second is not over', async () => {
    const c = cache();
    const load = jest.fn(() => Promise.resolve('page'));
    await c.read('a', '1', load);
    now = 499;
    await c.read('a', '1', load);
    expect(load).toHaveBeenCalledTimes(1);
    now = 1000;
    await c.read('a', '1', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('should read a page in demand again in the second half of its life, serving the current copy meanwhile', async () => {
    const c = cache();
    await c.read('a', '1', () => Promise.resolve('first'));
    let resolve: (value: string) => void = () => undefined;
    const load = jest.fn(() => new Promise<string>((r) => (resolve = r)));
    now = 600;
    expect(await c.read('a', '1', load)).toBe('first');
    now = 700;
    expect(await c.read('a', '1', load)).toBe('first');
    expect(load).toHaveBeenCalledTimes(1); // one refresh at a time
    resolve('second');
    await Promise.resolve();
    await Promise.resolve();
    // The new copy counts from when its read started (600): valid until 1600, no wait at 1000.
    now = 1500;
    const again = jest.fn(() => Promise.resolve('third'));
    expect(await c.read('a', '1', again)).toBe('second');
    expect(again).toHaveBeenCalledTimes(1); // past half its life: refreshed again
  });

  it('should keep the current copy when a refresh fails, and expire it on time', async () => {
    const c = cache();
    await c.read('a', '1', () => Promise.resolve('first'));
    now = 600;
    expect(await c.read('a', '1', () => Promise.reject(new Error('db down')))).toBe('first');
    await Promise.resolve();
    now = 1000;
    expect(await c.read('a', '1', () => Promise.resolve('fresh'))).toBe('fresh');
  });

  it('should not let a refresh of an old version replace a newer page', async () => {
    const c = cache();
    await c.read('a', '1', () => Promise.resolve('v1'));
    let resolve: (value: string) => void = () => undefined;
    now = 600;
    await c.read('a', '1', () => new Promise<string>((r) => (resolve = r)));
    expect(await c.read('a', '2', () => Promise.resolve('v2'))).toBe('v2');
    resolve('v1 again');
    await Promise.resolve();
    await Promise.resolve();
    expect(await c.read('a', '2', () => Promise.resolve('unused'))).toBe('v2');
  });

  it('should read again when the market version moved', async () => {
    const c = cache();
    expect(await c.read('a', '1', () => Promise.resolve('old'))).toBe('old');
    expect(await c.read('a', '2', () => Promise.resolve('new'))).toBe('new');
  });

  it('should share one read between requests for the same page in flight', async () => {
    const c = cache();
    let resolve: (value: string) => void = () => undefined;
    const load = jest.fn(() => new Promise<string>((r) => (resolve = r)));
    const first = c.read('a', '1', load);
    const second = c.read('a', '1', load);
    resolve('page');
    expect(await Promise.all([first, second])).toEqual(['page', 'page']);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('should not keep a failed read', async () => {
    const c = cache();
    await expect(c.read('a', '1', () => Promise.reject(new Error('db down')))).rejects.toThrow();
    expect(await c.read('a', '1', () => Promise.resolve('page'))).toBe('page');
  });

  it('should keep at most its bound, dropping the oldest', async () => {
    const c = cache();
    for (const key of ['a', 'b', 'c', 'd']) await c.read(key, '1', () => Promise.resolve(key));
    expect(c.size).toBe(3);
    const load = jest.fn(() => Promise.resolve('again'));
    expect(await c.read('a', '1', load)).toBe('again');
    expect(await c.read('d', '1', load)).toBe('d');
  });
});
