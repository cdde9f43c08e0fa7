import type { Clock } from '../common/clock';
import { REPORT_INTERVAL_MS } from '../agent-reports/agent-reports.service';

/**
 * A node's allowance of reports: a token bucket per node. An agent reports once every
 * REPORT_INTERVAL_MS (60 s); after a failure it retries with backoff (5 s doubling up to the
 * interval) and at start it reports at once. The bucket holds 20 reports (a restart loop or a
 * run of retries never meets it) and refills one every 6 s, ten times the agent's pace; a node
 * that sends more is refused until it slows down, and every other node is unaffected.
 *
 * Kept in memory, per replica: with several replicas behind a balancer a node's allowance is at
 * most replicas × this, which still bounds it, and an agent holds its stream to one replica.
 */
export const REPORT_BURST = 20;
export const REPORT_REFILL_MS = REPORT_INTERVAL_MS / 10;

/** Buckets refilled to the top are forgotten when the map grows past this many nodes. */
const SWEEP_AT = 10_000;

interface Bucket {
  tokens: number;
  atMs: number;
}

export type ReportAllowance = { allowed: true } | { allowed: false; retryAfterMs: number };

export class ReportRateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly clock: Clock,
    private readonly burst = REPORT_BURST,
    private readonly refillMs = REPORT_REFILL_MS,
  ) {}

  /** Takes one report from the node's allowance, or says how long until it has one. */
  take(nodeId: string): ReportAllowance {
    const now = this.clock.now().getTime();
    const bucket = this.refilled(this.buckets.get(nodeId), now);
    if (bucket.tokens < 1) {
      this.buckets.set(nodeId, bucket);
      return { allowed: false, retryAfterMs: Math.ceil((1 - bucket.tokens) * this.refillMs) };
    }
    this.buckets.set(nodeId, { tokens: bucket.tokens - 1, atMs: now });
    if (this.buckets.size > SWEEP_AT) this.sweep(now);
    return { allowed: true };
  }

  private refilled(bucket: Bucket | undefined, now: number): Bucket {
    if (!bucket) return { tokens: this.burst, atMs: now };
    // A clock that went back refills nothing rather than taking tokens away.
    const elapsed = Math.max(0, now - bucket.atMs);
    return { tokens: Math.min(this.burst, bucket.tokens + elapsed / this.refillMs), atMs: now };
  }

  private sweep(now: number): void {
    for (const [nodeId, bucket] of this.buckets) {
      if (this.refilled(bucket, now).tokens >= this.burst) this.buckets.delete(nodeId);
    }
  }
}
