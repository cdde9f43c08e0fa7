import { Injectable } from '@nestjs/common';
import { registerBacklogGauges } from '../metrics/backlog-gauges';
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
    registerBacklogGauges(metrics, 'deposits', () => transfers.backlog(), {
      open: {
        name: 'scn_deposit_transfers_open',
        help: 'Transfers to deposit addresses not credited yet, by status (confirming, pending_minimum)',
        statuses: ['confirming', 'pending_minimum'],
      },
      oldest: {
        name: 'scn_deposit_transfers_oldest_seen_timestamp_seconds',
        help: 'When the oldest transfer of each open status was first seen (Unix time); absent when there is none',
        at: (row) => row.oldestSeenAt,
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
