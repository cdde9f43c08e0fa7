import { Injectable } from '@nestjs/common';
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
    const backlog = metrics.cached('withdrawals', () => withdrawals.backlog());
    metrics.gauge({
      name: 'scn_withdrawals_open',
      help: 'Withdrawals not settled yet, by status (pending: not sent; sent: awaiting the chain)',
      labelNames: ['status'],
      async collect() {
        const rows = await backlog.get();
        this.reset();
        if (rows === null) return;
        for (const status of ['pending', 'sent'])
          this.set({ status }, rows.find((r) => r.status === status)?.count ?? 0);
      },
    });
    metrics.gauge({
      name: 'scn_withdrawals_oldest_open_timestamp_seconds',
      help: 'When the oldest withdrawal of each open status was requested (Unix time); absent when there is none',
      labelNames: ['status'],
      async collect() {
        this.reset();
        for (const row of (await backlog.get()) ?? [])
          this.set({ status: row.status }, row.oldestCreatedAt.getTime() / 1000);
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
