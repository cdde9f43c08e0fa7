/**
 * A bounded map that forgets the entries used longest ago once the weights of what it holds
 * pass `capacity` (by default each entry weighs 1, so the capacity is a count). A Map keeps
 * insertion order: a hit moves to the end, the first entry is the oldest. The feed's rendering
 * caches are exact by construction: every key carries the versions its value was built from
 * (subscription-feed.service.ts), so they are only forgotten; what the feed reads from the
 * database is kept here too (feed-memory.ts) and dropped when a commit changes it.
 */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; weight: number }>();
  private weight = 0;

  constructor(
    private readonly capacity: number,
    private readonly weigh: (value: V) => number = () => 1,
    /** Told of every entry that leaves (forgotten, deleted, replaced or cleared). */
    private readonly left: (key: string, value: V) => void = () => undefined,
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
      this.left(oldest, entry.value);
    }
  }

  /** Forgets `key` (nothing when it is not held). */
  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.weight -= entry.weight;
    this.left(key, entry.value);
  }

  /** Forgets everything. */
  clear(): void {
    const entries = [...this.entries];
    this.entries.clear();
    this.weight = 0;
    for (const [key, entry] of entries) this.left(key, entry.value);
  }

  /** What is held, oldest first (a copy: the caller may delete while it walks). */
  held(): Array<[string, V]> {
    return [...this.entries].map(([key, entry]) => [key, entry.value]);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The sum of the weights held. */
  get weightHeld(): number {
    return this.weight;
  }
}
