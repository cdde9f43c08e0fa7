/** How long a page may be reused while the market version stays the same. */
export const PAGE_CACHE_TTL_MS = 1000;
/** At most this many pages are kept (the oldest goes first): a bounded, short-lived cache. */
export const PAGE_CACHE_MAX_ENTRIES = 500;

interface Entry<T> {
  version: string;
  storedAt: number;
  value: Promise<T>;
}

/**
 * A short-lived cache of market pages, keyed by the query and the market version (a sequence
 * that moves at the commit of every change to which servers a page shows, their slots, group or
 * place: market migration). So a page never shows a server added, removed, filled or disabled
 * before this request; what it may show up to a second late are ping, uptime and the score.
 * Requests for the same page while it is being read share that one read. Per replica, bounded,
 * and never the source of a decision: it only saves reads for the market's many visitors.
 */
export class MarketPageCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly ttlMs = PAGE_CACHE_TTL_MS,
    private readonly maxEntries = PAGE_CACHE_MAX_ENTRIES,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get size(): number {
    return this.entries.size;
  }

  read(key: string, version: string, load: () => Promise<T>): Promise<T> {
    const at = this.now();
    const entry = this.entries.get(key);
    if (entry && entry.version === version && at - entry.storedAt < this.ttlMs) return entry.value;
    const value = load();
    this.entries.delete(key);
    this.entries.set(key, { version, storedAt: at, value });
    // A failed read is not kept: the next request tries again.
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    return value;
  }
}
