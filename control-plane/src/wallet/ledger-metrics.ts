import { Injectable } from '@nestjs/common';
import { MICRO_PER_SSL } from '@scn/proto';
import { MetricsRegistry } from '../metrics/metrics-registry';
import { WalletRepository } from './wallet.repository';

/**
 * The ledger's totals per account kind, read at scrape (at most every 15 s): what users hold
 * (client_wallet, node_wallet, stake, reward_escrow), the pool, revenue, burn, and `external`,
 * negative by what came in from outside (double entry: the kinds sum to zero).
 */
@Injectable()
export class LedgerMetrics {
  constructor(metrics: MetricsRegistry, repository: WalletRepository) {
    const totals = metrics.cached('ledger', () => repository.totalsByKind());
    metrics.gauge({
      name: 'scn_ledger_balance_ssl',
      help: 'Sum of the balances of the ledger accounts of each kind, in SSL',
      labelNames: ['kind'],
      async collect() {
        this.reset();
        for (const row of (await totals.get()) ?? []) {
          // Whole SSL and the micro remainder apart: exact until 2^53 SSL, not 2^53 micro-SSL.
          const whole = Number(row.balanceMicro / MICRO_PER_SSL);
          const micro = Number(row.balanceMicro % MICRO_PER_SSL);
          this.set({ kind: row.kind }, whole + micro / Number(MICRO_PER_SSL));
        }
      },
    });
    metrics.gauge({
      name: 'scn_ledger_accounts',
      help: 'Ledger accounts of each kind',
      labelNames: ['kind'],
      async collect() {
        this.reset();
        for (const row of (await totals.get()) ?? []) this.set({ kind: row.kind }, row.accounts);
      },
    });
  }
}
