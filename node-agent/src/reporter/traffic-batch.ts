import { randomUUID } from 'node:crypto';
import type { ClientTrafficCounters } from '../proxy-core/proxy-core';

export interface Counter {
  up: bigint;
  down: bigint;
}

/** One batch of per-client traffic deltas (ReportRequest.client_traffic and traffic_batch_id). */
export interface TrafficBatch {
  /** A random UUID, the report's traffic_batch_id. */
  readonly id: string;
  /** The clients whose counters moved, their deltas and the counter totals the deltas reach. */
  readonly clients: ReadonlyArray<{
    clientUuid: string;
    up: bigint;
    down: bigint;
    total: Counter;
  }>;
}

/**
 * The traffic a node reports, as batches the control plane adds once each. The
 * core's counters are cumulative; a batch is their movement since the baseline (what the control
 * plane is known to have). Once formed, a batch is pending: every report carries it, the same id
 * and the same deltas, until a report carrying it is answered accepted. Only then does the
 * baseline move to the batch's totals, and the next report forms a new batch. Any other outcome
 * (an error, a timeout, a cut connection, or even an answer with accepted=false, which proves that
 * copy was not applied but not that an earlier copy whose answer was lost was not) leaves the
 * batch pending: the control plane adds a batch id it already applied no second time. Traffic
 * that moves while a batch is pending goes into the next batch (the baseline has not passed it).
 * A counter below the baseline is a core restart: everything it counted is new.
 */
export class TrafficBatches {
  private readonly baseline = new Map<string, Counter>();
  private pending: TrafficBatch | null = null;

  constructor(private readonly newId: () => string = randomUUID) {}

  /**
   * The batch the next report carries: the pending one, else a new one of the counters' movement
   * since the baseline (null when nothing moved).
   */
  next(counters: readonly ClientTrafficCounters[]): TrafficBatch | null {
    if (this.pending) return this.pending;
    const clients: Array<TrafficBatch['clients'][number]> = [];
    for (const counter of counters) {
      const previous = this.baseline.get(counter.clientUuid) ?? { up: 0n, down: 0n };
      // Counters restart at zero with the core: then everything counted is new.
      const reset = counter.uplinkBytes < previous.up || counter.downlinkBytes < previous.down;
      const up = reset ? counter.uplinkBytes : counter.uplinkBytes - previous.up;
      const down = reset ? counter.downlinkBytes : counter.downlinkBytes - previous.down;
      if (up > 0n || down > 0n) {
        clients.push({
          clientUuid: counter.clientUuid,
          up,
          down,
          total: { up: counter.uplinkBytes, down: counter.downlinkBytes },
        });
      }
    }
    if (clients.length === 0) return null;
    this.pending = { id: this.newId(), clients };
    return this.pending;
  }

  /** A report carrying `batch` was answered accepted: the next report starts a new batch. */
  accepted(batch: TrafficBatch): void {
    if (this.pending !== batch) return;
    for (const c of batch.clients) this.baseline.set(c.clientUuid, c.total);
    this.pending = null;
  }
}
