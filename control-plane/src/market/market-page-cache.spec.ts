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
    now = 999;
    await c.read('a', '1', load);
    expect(load).toHaveBeenCalledTimes(1);
    now = 1000;
    await c.read('a', '1', load);
    expect(load).toHaveBeenCalledTimes(2);
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
