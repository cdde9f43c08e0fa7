import { Global, Module } from '@nestjs/common';
import { ClientSetsModule } from '../client-sets/client-sets.module';
import { RealtimeModule } from '../realtime/realtime.module';
import { HttpMetrics } from './http-metrics';
import { MetricsController } from './metrics.controller';
import { MetricsListener } from './metrics-listener';
import { MetricsRegistry } from './metrics-registry';
import { RuntimeMetrics } from './runtime-metrics';

/**
 * The registry every domain registers its series in (global: deposits, withdrawals, the ledger
 * and the agents' gRPC server own theirs), and the HTTP request series.
 */
@Global()
@Module({
  providers: [
    { provide: MetricsRegistry, useFactory: () => new MetricsRegistry({ processMetrics: true }) },
    {
      provide: HttpMetrics,
      inject: [MetricsRegistry],
      useFactory: (m: MetricsRegistry) => new HttpMetrics(m),
    },
  ],
  exports: [MetricsRegistry, HttpMetrics],
})
export class MetricsCoreModule {}

/**
 * GET /metrics (Prometheus format; docs/architecture.md#metrics): on PORT behind METRICS_TOKEN,
 * and on METRICS_PORT's listener; with the series of the parts that have no domain of their own.
 */
@Module({
  imports: [ClientSetsModule, RealtimeModule],
  controllers: [MetricsController],
  providers: [RuntimeMetrics, MetricsListener],
  exports: [MetricsListener],
})
export class MetricsModule {}
