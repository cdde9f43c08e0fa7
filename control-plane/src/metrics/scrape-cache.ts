/**
 * A value read from the database for `/metrics`, at most once per `ttlMs` however often it is
 * scraped (several Prometheus servers, or a dashboard refreshing), and never making a scrape
 * wait longer than `waitMs`: while the database is slow or down the last value is served, and
 * once it is older than `maxAgeMs` nothing is (the series go absent rather than stale).
 */
export class ScrapeCache<T> {
  private value: T | null = null;
  private loadedAt = -Infinity;
  private inFlight: Promise<void> | null = null;

  constructor(
    private readonly load: () => Promise<T>,
    private readonly options: {
      ttlMs: number;
      waitMs: number;
      maxAgeMs: number;
      /** Called when a load fails (the failure is counted, never thrown at the scrape). */
      failed: (error: unknown) => void;
      now?: () => number;
    },
  ) {}

  async get(): Promise<T | null> {
    const now = this.options.now ?? Date.now;
    if (now() - this.loadedAt >= this.options.ttlMs) {
      this.inFlight ??= this.refresh();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.inFlight,
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, this.options.waitMs);
          timer.unref();
        }),
      ]);
      clearTimeout(timer);
    }
    return now() - this.loadedAt < this.options.maxAgeMs ? this.value : null;
  }

  private async refresh(): Promise<void> {
    const now = this.options.now ?? Date.now;
    try {
      this.value = await this.load();
      this.loadedAt = now();
    } catch (error) {
      this.options.failed(error);
    } finally {
      this.inFlight = null;
    }
  }
}
