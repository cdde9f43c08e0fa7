import { Injectable } from '@nestjs/common';
import { MetricsRegistry } from '../metrics/metrics-registry';
import { DepositTransfersRepository } from './deposit-transfers.repository';

/** request: a deposit request paid and verified (Solana Pay); address: a per-account address. */
export type DepositMethod = 'request' | 'address';

/**
 * Deposits credited and failed on this replica, and the backlog of transfers to deposit
 * addresses not credited yet (read at scrape, at most every 15 s): a `confirming` transfer that
 * stays is the chain or the watcher falling behind (docker/prometheus/alerts.yml).
 */
@Injectable()
export class DepositMetrics {
  private readonly credits;
  private readonly failures;

  constructor(metrics: MetricsRegistry, transfers: DepositTransfersRepository) {
    this.credits = metrics.counter({
      name: 'scn_deposits_credited_total',
      help: 'Deposits credited to a wallet, by method (request, address)',
      labelNames: ['method'],
    });
    this.failures = metrics.counter({
      name: 'scn_deposits_failed_total',
      help: 'Deposits not credited, by method and reason (request: a verify refused, with its error code; address: a transfer refused, too large, or dropped by the chain)',
      labelNames: ['method', 'reason'],
    });
    const backlog = metrics.cached('deposits', () => transfers.backlog());
    metrics.gauge({
      name: 'scn_deposit_transfers_open',
      help: 'Transfers to deposit addresses not credited yet, by status (confirming, pending_minimum)',
      labelNames: ['status'],
      async collect() {
        const rows = (await backlog.get()) ?? null;
        this.reset();
        if (rows === null) return;
        for (const status of ['confirming', 'pending_minimum'])
          this.set({ status }, rows.find((r) => r.status === status)?.count ?? 0);
      },
    });
    metrics.gauge({
      name: 'scn_deposit_transfers_oldest_seen_timestamp_seconds',
      help: 'When the oldest transfer of each open status was first seen (Unix time); absent when there is none',
      labelNames: ['status'],
      async collect() {
        this.reset();
        for (const row of (await backlog.get()) ?? [])
          this.set({ status: row.status }, row.oldestSeenAt.getTime() / 1000);
      },
    });
  }

  credited(method: DepositMethod): void {
    this.credits.inc({ method });
  }

  /** `reason`: an error code or refusal of a bounded list, never free text. */
  failed(method: DepositMethod, reason: string): void {
    this.failures.inc({ method, reason });
  }
}
