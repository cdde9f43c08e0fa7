import { LruCache } from './feed-cache';

describe('LruCache', () => {
  it('should forget the entry used longest ago once full', () => {
    const cache = new LruCache<number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // a is now the newest
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('should replace a value set again without growing', () => {
    const cache = new LruCache<string>(2);
    cache.set('a', 'x');
    cache.set('a', 'y');
    expect(cache.size).toBe(1);
    expect(cache.get('a')).toBe('y');
  });

  it('should refuse a capacity that holds nothing', () => {
    expect(() => new LruCache(0)).toThrow(RangeError);
  });
});

describe('LruCache by weight', () => {
  it('should keep the weights held under the capacity, forgetting the oldest first', () => {
    const cache = new LruCache<string>(10, (value) => value.length);
    cache.set('a', 'xxxx');
    cache.set('b', 'yyyy');
    cache.set('c', 'zzzz');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.weightHeld).toBe(8);
    cache.set('b', 'y');
    expect(cache.weightHeld).toBe(5);
  });

  it('should not hold a value heavier than the whole capacity', () => {
    const cache = new LruCache<string>(3, (value) => value.length);
    cache.set('a', 'long value');
    expect(cache.size).toBe(0);
    expect(cache.weightHeld).toBe(0);
  });
});
