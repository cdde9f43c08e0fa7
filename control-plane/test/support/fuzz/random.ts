/**
 * A seeded pseudo-random source (mulberry32): the same seed gives the same requests, so a
 * failure of the fuzz suite is reproduced by running it again with the seed it printed.
 */
export class SeededRandom {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let x = this.state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  }

  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.int(items.length)] as T;
  }

  /** `count` distinct items (all of them when there are fewer), in a seeded order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy.slice(0, Math.max(0, count));
  }

  /** An address of the TEST-NET ranges, for X-Forwarded-For only (no packet is sent to it). */
  testNetAddress(): string {
    return `${this.pick(['198.51.100', '203.0.113', '192.0.2'])}.${1 + this.int(254)}`;
  }
}
