import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../common/clock';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { DepositMatcherService } from './deposit-matcher.service';
import { DepositsException } from './deposits.exception';
import { DepositsRepository } from './deposits.repository';
import { type DepositChain, DEPOSIT_CHAIN } from './solana-chain';
import { QUOTE_GRACE_MS, reached } from './transfer-check';

/** The first look (or after a rest) goes this far back. */
const FIRST_PAGE = 100;
const PAGE = 1000;

/**
 * Credits deposits without anyone pressing Verify. Each second, while any request
 * is open: one getSignaturesForAddress(deposit address, until the newest signature already
 * handled), then, per new transfer, its parsed transaction; a transfer carrying the reference
 * of an open request is checked and credited like a verify. Transfers seen before they reached
 * the configured commitment are asked again each tick until they do. With no open request the
 * watcher makes no RPC call at all. The deposit watcher job (deposit-watcher.job.ts) calls
 * `watch` each second under its advisory lock.
 */
@Injectable()
export class DepositWatcherService {
  private readonly logger = new Logger('DepositWatcher');
  /** The newest signature to the deposit address already handled (this replica's view). */
  private lastSeen: string | undefined;
  /** Seen before they reached the commitment: asked again. */
  private readonly pending = new Set<string>();

  constructor(
    private readonly repository: DepositsRepository,
    private readonly matcher: DepositMatcherService,
    @Inject(DEPOSIT_CHAIN) private readonly chain: DepositChain,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * One look at the chain; the credits made. The caller holds the watcher job's lock (one look
   * at a time across the replicas).
   */
  async watch(): Promise<number> {
    const settings = this.config.solana;
    if (!settings) return 0;
    const since = new Date(this.clock.now().getTime() - QUOTE_GRACE_MS);
    if (!(await this.repository.anyOpen(since))) {
      // Rest: the next open request starts from the newest page again.
      this.lastSeen = undefined;
      this.pending.clear();
      return 0;
    }
    // Pending until handled: a run that fails half-way leaves the rest for the next tick.
    for (const signature of await this.newSignatures(settings.depositAddress)) {
      this.pending.add(signature);
    }
    let credited = 0;
    for (const signature of [...this.pending]) {
      const tx = await this.matcher.fetch(signature);
      if (!tx || (!tx.failed && !reached(tx.confirmation, settings.commitment))) continue;
      if (tx.failed) {
        this.pending.delete(signature);
        continue;
      }
      for (const request of await this.repository.openByReferences(tx.accountKeys)) {
        try {
          const result = await this.matcher.creditIfPays(request, tx);
          if (result.fresh) credited += 1;
        } catch (error) {
          if (!(error instanceof DepositsException)) throw error;
          this.logger.warn(
            { request: request.id, signature, code: error.code },
            'a transfer with a request reference was not credited',
          );
        }
      }
      this.pending.delete(signature);
    }
    return credited;
  }

  /** Signatures newer than lastSeen, oldest first (pages of PAGE until lastSeen). */
  private async newSignatures(address: string): Promise<string[]> {
    const found: string[] = [];
    let before: string | undefined;
    let newest: string | undefined;
    const limit = this.lastSeen ? PAGE : FIRST_PAGE;
    for (;;) {
      const page = await this.matcher.call(() =>
        this.chain.signaturesFor(address, { until: this.lastSeen, before, limit }),
      );
      newest ??= page[0]?.signature;
      found.push(...page.filter((s) => !s.failed).map((s) => s.signature));
      if (page.length < limit || !this.lastSeen) break;
      before = page[page.length - 1]!.signature;
    }
    if (newest) this.lastSeen = newest;
    return found.reverse();
  }
}
