/** How long a page may be reused while the market version stays the same. */
export const PAGE_CACHE_TTL_MS = 1000;
/** At most this many pages are kept (the oldest goes first): a bounded, short-lived cache. */
export const PAGE_CACHE_MAX_ENTRIES = 500;

interface Entry<T> {
  version: string;
  /** When the read that produced `value` started: the page is at least this fresh. */
  storedAt: number;
  value: Promise<T>;
  /** A fresher read of the same version is under way. */
  refreshing: boolean;
}

/**
 * A short-lived cache of market pages, keyed by the query and the market version (a sequence
 * that moves at the commit of every change to which servers a page shows, their slots, group or
 * place: market migration). So a page never shows a server added, removed, filled or disabled
 * before this request; what it may show up to a second late are ping, uptime and the score.
 * Requests for the same page while it is being read share that one read. A page asked for in the
 * second half of its life is read again in the background, and its requests keep the current
 * copy meanwhile: a page in demand is replaced before it expires, so its visitors do not all wait
 * for one read every second (that wait was the market's p99). Per replica, bounded, and never the
 * source of a decision: it only saves reads for the market's many visitors.
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
    if (entry && entry.version === version && at - entry.storedAt < this.ttlMs) {
      if (!entry.refreshing && at - entry.storedAt >= this.ttlMs / 2)
        this.refresh(key, entry, load, at);
      return entry.value;
    }
    const value = load();
    this.store(key, { version, storedAt: at, value, refreshing: false });
    // A failed read is not kept: the next request tries again.
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }

  /** Reads `entry`'s page again; the new copy replaces it once read, if nothing else did first. */
  private refresh(key: string, entry: Entry<T>, load: () => Promise<T>, at: number): void {
    entry.refreshing = true;
    const value = load();
    value.then(
      () => {
        if (this.entries.get(key) === entry) {
          this.store(key, { version: entry.version, storedAt: at, value, refreshing: false });
        }
      },
      // The current copy stays until it expires; a later request may try again.
      () => (entry.refreshing = false),
    );
  }

  private store(key: string, entry: Entry<T>): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}
