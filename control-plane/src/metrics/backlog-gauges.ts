import type { MetricsRegistry } from './metrics-registry';

interface BacklogSeries<R> {
  /** Rows open per status: 0 for a listed status with none; no series while unreadable. */
  open: { name: string; help: string; statuses: readonly string[] };
  /** When the oldest row of each open status began (Unix time); absent when there is none. */
  oldest: { name: string; help: string; at: (row: R) => Date };
}

/**
 * The two gauges of a backlog of open rows (deposit transfers, withdrawals), read at scrape from
 * `load` at most every 15 s through the registry's cache, its failures counted under `collector`.
 */
export function registerBacklogGauges<R extends { status: string; count: number }>(
  metrics: MetricsRegistry,
  collector: string,
  load: () => Promise<R[]>,
  series: BacklogSeries<R>,
): void {
  const backlog = metrics.cached(collector, load);
  const { statuses } = series.open;
  metrics.gauge({
    name: series.open.name,
    help: series.open.help,
    labelNames: ['status'],
    async collect() {
      const rows = await backlog.get();
      this.reset();
      if (rows === null) return;
      for (const status of statuses)
        this.set({ status }, rows.find((r) => r.status === status)?.count ?? 0);
    },
  });
  const { at } = series.oldest;
  metrics.gauge({
    name: series.oldest.name,
    help: series.oldest.help,
    labelNames: ['status'],
    async collect() {
      this.reset();
      for (const row of (await backlog.get()) ?? [])
        this.set({ status: row.status }, at(row).getTime() / 1000);
    },
  });
}
