import { Injectable } from '@nestjs/common';
import { registerBacklogGauges } from '../metrics/backlog-gauges';
import { MetricsRegistry } from '../metrics/metrics-registry';
import { WithdrawalsRepository } from './withdrawals.repository';

/**
 * Withdrawals paid out and failed (each failure reversed to the wallet) by this replica's payout
 * worker, and those not settled yet (read at scrape, at most every 15 s).
 */
@Injectable()
export class WithdrawalMetrics {
  private readonly paid;
  private readonly failures;

  constructor(metrics: MetricsRegistry, withdrawals: WithdrawalsRepository) {
    this.paid = metrics.counter({
      name: 'scn_withdrawals_paid_total',
      help: 'Withdrawals confirmed on chain',
      labelNames: [],
    });
    this.failures = metrics.counter({
      name: 'scn_withdrawals_failed_total',
      help: 'Withdrawals that failed (refused by the chain or expired) and were returned to the wallet',
      labelNames: [],
    });
    registerBacklogGauges(metrics, 'withdrawals', () => withdrawals.backlog(), {
      open: {
        name: 'scn_withdrawals_open',
        help: 'Withdrawals not settled yet, by status (pending: not sent; sent: awaiting the chain)',
        statuses: ['pending', 'sent'],
      },
      oldest: {
        name: 'scn_withdrawals_oldest_open_timestamp_seconds',
        help: 'When the oldest withdrawal of each open status was requested (Unix time); absent when there is none',
        at: (row) => row.oldestCreatedAt,
      },
    });
  }

  paidOut(): void {
    this.paid.inc();
  }

  failed(): void {
    this.failures.inc();
  }
}
