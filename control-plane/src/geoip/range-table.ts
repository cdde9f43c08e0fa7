/**
 * Sorted, non-overlapping ranges of keys, each with a 32-bit value, in typed arrays: three
 * numbers a range, found by binary search. IPv4 keys are Uint32 addresses; IPv6 keys the upper
 * 64 bits of the address (BigUint64).
 */
/** Uint32Array for number keys, BigUint64Array for bigint ones. */
interface KeyArray<K> {
  [index: number]: K;
  readonly length: number;
  readonly byteLength: number;
  slice(start: number, end: number): KeyArray<K>;
  set(source: KeyArray<K>): void;
}

export class RangeTable<K extends number | bigint> {
  constructor(
    private readonly starts: KeyArray<K>,
    private readonly ends: KeyArray<K>,
    private readonly values: Uint32Array,
  ) {}

  get length(): number {
    return this.values.length;
  }

  get byteLength(): number {
    return this.starts.byteLength + this.ends.byteLength + this.values.byteLength;
  }

  /** The value of the range holding `key`, or -1 when none does. */
  find(key: K): number {
    let low = 0;
    let high = this.values.length - 1;
    // The last range starting at or before the key.
    while (low <= high) {
      const mid = (low + high) >>> 1;
      if (this.starts[mid]! <= key) low = mid + 1;
      else high = mid - 1;
    }
    return high >= 0 && key <= this.ends[high]! ? this.values[high]! : -1;
  }
}

/**
 * Collects ranges in ascending order. A range that touches the previous one with the same value
 * extends it (fewer rows); one that overlaps it (possible only in IPv6's 64-bit keys, for
 * networks smaller than a /64) keeps the earlier range's value where they overlap.
 */
export class RangeBuilder<K extends number | bigint> {
  private starts: KeyArray<K>;
  private ends: KeyArray<K>;
  private values: Uint32Array;
  private count = 0;
  /** The last row's start as given (a row cut short by an overlap starts later). */
  private lastStart: K | null = null;
  /** Rows that overlapped the previous one in key space (IPv6 networks below /64). */
  overlaps = 0;

  constructor(
    private readonly make: (size: number) => KeyArray<K>,
    /** The key after `key` (no overflow: only called below a range's end). */
    private readonly next: (key: K) => K,
    capacity: number,
  ) {
    this.starts = make(Math.max(16, capacity));
    this.ends = make(Math.max(16, capacity));
    this.values = new Uint32Array(Math.max(16, capacity));
  }

  /** Adds [start, end] with `value`; throws when the rows are not in ascending order. */
  push(start: K, end: K, value: number): void {
    if (end < start) throw new Error('a range ends before it starts');
    if (this.lastStart !== null && start < this.lastStart) {
      throw new Error('the rows are not sorted');
    }
    this.lastStart = start;
    const last = this.count - 1;
    if (last >= 0) {
      const previousEnd = this.ends[last]!;
      if (start <= previousEnd) {
        this.overlaps++;
        if (end <= previousEnd) return;
        if (this.values[last] === value) {
          this.ends[last] = end;
          return;
        }
        start = this.next(previousEnd);
      } else if (this.values[last] === value && start === this.next(previousEnd)) {
        this.ends[last] = end;
        return;
      }
    }
    if (this.count === this.values.length) this.grow();
    this.starts[this.count] = start;
    this.ends[this.count] = end;
    this.values[this.count] = value;
    this.count++;
  }

  /** The table, in arrays of exactly its length. */
  finish(): RangeTable<K> {
    return new RangeTable<K>(
      this.starts.slice(0, this.count),
      this.ends.slice(0, this.count),
      this.values.slice(0, this.count),
    );
  }

  private grow(): void {
    const size = this.values.length * 2;
    const starts = this.make(size);
    const ends = this.make(size);
    const values = new Uint32Array(size);
    starts.set(this.starts);
    ends.set(this.ends);
    values.set(this.values);
    this.starts = starts;
    this.ends = ends;
    this.values = values;
  }
}

export const ipv4Builder = (capacity: number) =>
  new RangeBuilder<number>(
    (size) => new Uint32Array(size),
    (key) => key + 1,
    capacity,
  );
export const ipv6Builder = (capacity: number) =>
  new RangeBuilder<bigint>(
    (size) => new BigUint64Array(size),
    (key) => key + 1n,
    capacity,
  );
