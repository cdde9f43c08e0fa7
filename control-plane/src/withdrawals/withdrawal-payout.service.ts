import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../common/clock';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { WithdrawalSettings } from '../config/withdrawal-settings';
import { TransactionRunner } from '../database/transaction-runner';
import { RealtimeGateway } from '../realtime/realtime.gateway';
import { LedgerService } from '../wallet/ledger.service';
import { WithdrawalMetrics } from './withdrawal-metrics';
import { PAYOUT_CHAIN, type PayoutChain, signPayout } from './payout-chain';
import { type PayoutStatus, payoutDecision } from './withdrawal-rules';
import { type WithdrawalRow, WithdrawalsRepository } from './withdrawals.repository';
import { JOBS } from '../jobs/job-registry';

/** Withdrawals one run moves at most (the rest wait for the next run, a second later). */
const BATCH = 100;

/**
 * Pays withdrawals out. Each run, on one replica at a time:
 *
 * 1. pending: a fresh blockhash, the transfer built and signed by the treasury key, then the
 *    signed transaction, its signature and its last valid block height stored (pending -> sent)
 *    BEFORE it is sent; then sent.
 * 2. sent: the finalized block height, then every signature's status (whole history). Landed at
 *    the commitment: confirmed (or, landed with an error: failed). Not seen and the finalized
 *    chain past its last valid block height: it can never land, failed. Not seen otherwise: the
 *    same signed bytes sent again (never re-signed, so it can land at most once).
 *
 * The first send of a payout is simulated first (simulation forwards nothing): a payout the
 * chain would refuse (the treasury short of SOL) fails at once, before any copy of it exists
 * outside this database. Every status change is conditional on the status it leaves, and a
 * failure writes its reversal (external -net, platform_revenue -fee, node_wallet +amount;
 * external_ref `payout-reversal:<id>`, unique) in the same transaction: once.
 */
@Injectable()
export class WithdrawalPayoutService {
  private readonly logger = new Logger('WithdrawalPayouts');

  constructor(
    private readonly repository: WithdrawalsRepository,
    private readonly ledger: LedgerService,
    private readonly transactions: TransactionRunner,
    private readonly realtime: RealtimeGateway,
    private readonly metrics: WithdrawalMetrics,
    @Inject(PAYOUT_CHAIN) private readonly chain: PayoutChain,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** One run unless another replica's is going (then null); the withdrawals settled. */
  runOnce(): Promise<number | null> {
    return this.transactions.exclusive(JOBS.withdrawalPayouts.lockId, () => this.payOut());
  }

  private async payOut(): Promise<number> {
    const settings = this.config.withdrawals;
    if (!settings) return 0;
    // With nothing open the run asks the chain nothing.
    const open = await this.repository.open(BATCH);
    if (open.length === 0) return 0;
    const sentNow = new Set<string>();
    // The operators whose wallets a settled payout changed: their sockets hear of it.
    const owners = new Set<string>();
    let settled = 0;
    for (const row of open.filter((candidate) => candidate.status === 'pending')) {
      const outcome = await this.guarded(row, () => this.signAndSend(settings, row));
      if (outcome === 'failed') {
        settled += 1;
        owners.add(row.ownerUuid);
      }
      sentNow.add(row.id);
    }
    const sent = (await this.repository.open(BATCH)).filter(
      (row) => row.status === 'sent' && !sentNow.has(row.id),
    );
    if (sent.length > 0) {
      const height = await this.chain.finalizedBlockHeight();
      const statuses = await this.chain.statuses(sent.map((row) => row.signature!));
      for (const [i, row] of sent.entries()) {
        if (await this.guarded(row, () => this.settle(row, statuses[i] ?? null, height))) {
          settled += 1;
          owners.add(row.ownerUuid);
        }
      }
    }
    for (const owner of owners) this.realtime.walletUpdated(owner, 'withdrawal');
    return settled;
  }

  /** What the chain says of a sent payout, acted on; true when it was settled. */
  private async settle(
    row: WithdrawalRow,
    status: PayoutStatus | null,
    finalizedHeight: number,
  ): Promise<boolean> {
    const decision = payoutDecision(
      status,
      finalizedHeight,
      row.lastValidBlockHeight!,
      this.config.solana!.commitment,
    );
    switch (decision.action) {
      case 'confirm': {
        const confirmed = await this.repository.markConfirmed(row.id, this.clock.now());
        if (confirmed) this.metrics.paidOut();
        return confirmed;
      }
      case 'fail':
        return this.fail(row.id, decision.reason, null);
      case 'resend':
        return this.send(row);
      case 'wait':
        return false;
    }
  }

  /** One withdrawal's step; an RPC that fails leaves it for the next run, not the others. */
  private async guarded<T>(row: WithdrawalRow, step: () => Promise<T>): Promise<T | null> {
    try {
      return await step();
    } catch (err) {
      this.logger.warn(
        { err, withdrawal: row.id },
        'a withdrawal step failed; trying again next run',
      );
      return null;
    }
  }

  /** pending -> sent, then the first send (skipped: another run had signed it). */
  private async signAndSend(
    settings: WithdrawalSettings,
    row: WithdrawalRow,
  ): Promise<'sent' | 'failed' | 'skipped'> {
    const blockhash = await this.chain.latestBlockhash();
    const payout = signPayout(settings.treasury, row, blockhash);
    if (!(await this.repository.markSigned(row.id, payout, this.clock.now()))) return 'skipped';
    const failed = await this.send({
      ...row,
      status: 'sent',
      signature: payout.signature,
      lastValidBlockHeight: payout.lastValidBlockHeight,
      signedTransaction: payout.signedTransaction,
    });
    return failed ? 'failed' : 'sent';
  }

  /**
   * Counts the send, then sends; the first one is simulated before (see above). True when that
   * simulation failed the withdrawal.
   */
  private async send(row: WithdrawalRow): Promise<boolean> {
    const attempt = await this.repository.countSend(row.id);
    if (attempt === null) return false;
    const wire = Buffer.from(row.signedTransaction!, 'base64');
    if (attempt === 1) {
      const refused = await this.chain.simulate(wire);
      // Sent again meanwhile (attempt 2 by another run): then only its expiry may fail it.
      if (refused !== null)
        return this.fail(row.id, `The payout was refused by the chain: ${refused}`, attempt);
    }
    await this.chain.send(wire);
    return false;
  }

  /**
   * sent -> failed with its reversal, in one transaction; false when it was settled meanwhile
   * (or, with `sendAttempts`, sent again since).
   */
  private async fail(id: string, reason: string, sendAttempts: number | null): Promise<boolean> {
    const failed = await this.transactions.runRetrying(async (tx) => {
      const row = await this.repository.lockSent(tx, id, sendAttempts);
      if (!row) return false;
      const reversalTransactionId = await this.ledger.lockAndPost(tx, {
        type: 'withdrawal_reversal',
        postings: [
          { account: { system: 'external' }, amountMicro: -row.netMicro },
          { account: { system: 'platform_revenue' }, amountMicro: -row.feeMicro },
          {
            account: { wallet: 'node_wallet', ownerUuid: row.ownerUuid },
            amountMicro: row.amountMicro,
          },
        ],
        initiatorUuid: row.ownerUuid,
        description: 'Failed withdrawal returned to the wallet',
        describedAs: { code: 'withdrawal_returned', values: {} },
        externalRef: `payout-reversal:${id}`,
      });
      await this.repository.markFailed(tx, id, {
        reason,
        reversalTransactionId,
        now: this.clock.now(),
      });
      return true;
    });
    if (failed) {
      this.metrics.failed();
      this.logger.warn({ withdrawal: id, reason }, 'a withdrawal failed and was reversed');
    }
    return failed;
  }
}
