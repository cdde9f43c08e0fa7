import type { ClientTrafficCounters } from './proxy-core';

/**
 * Per-client counters of the core runs before the last deliberate restart. The core's counters
 * start at zero in every run; adding these back keeps a restart the agent chose (an audit's
 * reset, a new inbound) from looking like less traffic to the reporter. A crash drops them: the
 * reporter then sees every counter restart at zero, as it would without the agent's help.
 */
export class CarriedTraffic {
  private carried = new Map<string, ClientTrafficCounters>();

  /** A deliberate restart follows: `counters` (already including what was carried) carry over. */
  carry(counters: readonly ClientTrafficCounters[]): void {
    this.carried = new Map(counters.map((counter) => [counter.clientUuid, { ...counter }]));
  }

  /** The core crashed: its run's counters are lost, and so is what was carried into it. */
  drop(): void {
    this.carried.clear();
  }

  /** The running core's counters plus what was carried, per client, sorted by client. */
  addTo(counters: readonly ClientTrafficCounters[]): ClientTrafficCounters[] {
    return addCounters(counters, this.carried.values());
  }
}

/** Per-client sums of two sets of traffic counters, sorted by client. */
export function addCounters(
  counters: readonly ClientTrafficCounters[],
  more: Iterable<ClientTrafficCounters>,
): ClientTrafficCounters[] {
  const sums = new Map(counters.map((counter) => [counter.clientUuid, { ...counter }]));
  for (const extra of more) {
    const sum = sums.get(extra.clientUuid) ?? {
      clientUuid: extra.clientUuid,
      uplinkBytes: 0n,
      downlinkBytes: 0n,
    };
    sum.uplinkBytes += extra.uplinkBytes;
    sum.downlinkBytes += extra.downlinkBytes;
    sums.set(extra.clientUuid, sum);
  }
  return [...sums.values()].sort((a, b) => a.clientUuid.localeCompare(b.clientUuid));
}
