import {
  collectDefaultMetrics,
  Counter,
  type CounterConfiguration,
  Gauge,
  type GaugeConfiguration,
  Histogram,
  type HistogramConfiguration,
  Registry,
} from 'prom-client';
import { ScrapeCache } from './scrape-cache';

type Config<C> = Omit<C, 'registers'>;

/**
 * This application's metrics (`/metrics`, docs/architecture.md#metrics). Each application has its
 * own registry, never prom-client's global one: a test process builds several applications,
 * and the global registry would refuse their second copy of every metric.
 */
export class MetricsRegistry {
  readonly registry = new Registry();
  private readonly collectErrors = this.counter({
    name: 'scn_metrics_collect_errors_total',
    help: 'Reads for /metrics that failed (the database did not answer); their series are then absent or stale',
    labelNames: ['collector'],
  });

  /**
   * `processMetrics`: the process's own series (CPU, memory, heap, event-loop lag, GC), which
   * prom-client measures without timers; off in unit specs, which have no process to watch.
   */
  constructor({ processMetrics = false }: { processMetrics?: boolean } = {}) {
    if (processMetrics) collectDefaultMetrics({ register: this.registry });
  }

  counter<L extends string>(config: Config<CounterConfiguration<L>>): Counter<L> {
    return new Counter<L>({ ...config, registers: [this.registry] });
  }

  gauge<L extends string>(config: Config<GaugeConfiguration<L>>): Gauge<L> {
    return new Gauge<L>({ ...config, registers: [this.registry] });
  }

  histogram<L extends string>(config: Config<HistogramConfiguration<L>>): Histogram<L> {
    return new Histogram<L>({ ...config, registers: [this.registry] });
  }

  /**
   * A value the scrape reads from the database at most every `ttlMs` (ScrapeCache), its
   * failures counted under `collector`.
   */
  cached<T>(collector: string, load: () => Promise<T>, ttlMs = 15_000): ScrapeCache<T> {
    return new ScrapeCache(load, {
      ttlMs,
      waitMs: 1_000,
      maxAgeMs: 4 * ttlMs,
      failed: () => this.collectErrors.inc({ collector }),
    });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition text (Prometheus format). */
  metrics(): Promise<string> {
    return this.registry.metrics();
  }
}
