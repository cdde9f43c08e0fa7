/**
 * A bounded map that forgets the entries used longest ago once the weights of what it holds
 * pass `capacity` (by default each entry weighs 1, so the capacity is a count). A Map keeps
 * insertion order: a hit moves to the end, the first entry is the oldest. The feed's caches are
 * exact by construction: every key carries the versions its value was built from
 * (subscription-feed.service.ts), so nothing is ever invalidated, only forgotten.
 */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; weight: number }>();
  private weight = 0;

  constructor(
    private readonly capacity: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {
    if (!(capacity >= 1)) throw new RangeError('capacity must be >= 1');
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Holds `value` unless it alone weighs more than the capacity. */
  set(key: string, value: V): void {
    this.delete(key);
    const weight = this.weigh(value);
    if (weight > this.capacity) return;
    this.entries.set(key, { value, weight });
    this.weight += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.weight <= this.capacity) break;
      this.entries.delete(oldest);
      this.weight -= entry.weight;
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** The sum of the weights held. */
  get weightHeld(): number {
    return this.weight;
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.weight -= entry.weight;
  }
}
