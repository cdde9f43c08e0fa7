import * as grpc from '@grpc/grpc-js';
import { Injectable } from '@nestjs/common';
import { MetricsRegistry } from '../metrics/metrics-registry';

/** The agents' streams this replica holds open: the nodes connected to it. */
export type AgentStreamKind = 'watch_clients' | 'report_stream';

/** gRPC status names, lower-cased: the bounded reasons a report is refused for. */
const STATUS_NAMES = new Map<number, string>(
  Object.entries(grpc.status)
    .filter(([, code]) => typeof code === 'number')
    .map(([name, code]) => [code as number, name.toLowerCase()]),
);

/** Agent reports accepted and refused (by reason), and the agents' open streams. */
@Injectable()
export class AgentMetrics {
  private readonly reports;
  private readonly open: Record<AgentStreamKind, number> = { watch_clients: 0, report_stream: 0 };

  constructor(metrics: MetricsRegistry) {
    this.reports = metrics.counter({
      name: 'scn_agent_reports_total',
      help: "Agents' reports, by outcome (accepted, rejected) and reason (ok, or the gRPC status refused with)",
      labelNames: ['outcome', 'reason'],
    });
    const open = this.open;
    metrics.gauge({
      name: 'scn_agent_streams',
      help: 'Agent streams open on this replica, by method (watch_clients: one per connected node)',
      labelNames: ['method'],
      collect() {
        for (const [method, count] of Object.entries(open)) this.set({ method }, count);
      },
    });
  }

  reportAccepted(): void {
    this.reports.inc({ outcome: 'accepted', reason: 'ok' });
  }

  /** `code`: the gRPC status the report was refused with. */
  reportRejected(code: grpc.status): void {
    const reason = STATUS_NAMES.get(code) ?? 'unknown';
    this.reports.inc({ outcome: 'rejected', reason });
  }

  /** A stream opened; returns what to call (once) when it closes. */
  streamOpened(kind: AgentStreamKind): () => void {
    this.open[kind] += 1;
    let closed = false;
    return () => {
      if (closed) return;
      closed = true;
      this.open[kind] -= 1;
    };
  }
}
