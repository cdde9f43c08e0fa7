import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  ECONOMICS,
  sslText,
  type Withdrawal,
  withdrawalAmountMicro,
  withdrawalQuote,
  type WithdrawalsResponse,
  withdrawalSuccessMessage,
  type WithdrawResponse,
} from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { TransactionRunner } from '../database/transaction-runner';
import { JOBS } from '../jobs/job-registry';
import { JobScheduler } from '../jobs/job-scheduler';
import { explorerTxUrl } from '../config/solana-settings';
import { IdempotencyService } from '../wallet/idempotency.service';
import { LedgerService } from '../wallet/ledger.service';
import { amountProblem, destinationProblem, leftTodayMicro, utcDay } from './withdrawal-rules';
import { WithdrawalsException } from './withdrawals.exception';
import { type WithdrawalRow, WithdrawalsRepository } from './withdrawals.repository';

/** How many withdrawals the list shows (newest first). */
const LIST_LIMIT = 50;

/**
 * A node operator's withdrawals: the rules of a request and the one database
 * transaction that takes the SSL and records the payout to make; the payout itself is the
 * worker's (WithdrawalPayoutService).
 */
@Injectable()
export class WithdrawalsService {
  constructor(
    private readonly repository: WithdrawalsRepository,
    private readonly ledger: LedgerService,
    private readonly idempotency: IdempotencyService,
    private readonly transactions: TransactionRunner,
    private readonly scheduler: JobScheduler,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * docs/product/input-rules.md#market-and-account-input: at most balance minus frozen, at least the minimum, within the daily cap; the
   * destination a wallet's public key. One transaction (under the node wallet's lock, so two
   * requests of one operator are decided one after the other): the ledger's `withdrawal`
   * (node_wallet -amount, platform_revenue +fee, external +net) and the pending row with its
   * quote. An Idempotency-Key makes it happen once; a refusal takes nothing and keeps no key.
   */
  async withdraw(
    ownerUuid: string,
    body: { amount: string | number; destinationAddress: string },
    idempotencyKey: string | undefined,
  ): Promise<WithdrawResponse> {
    const settings = this.config.withdrawals;
    const solana = this.config.solana;
    if (!settings || !solana) throw new WithdrawalsException('withdrawals_suspended');
    const amountMicro = withdrawalAmountMicro(body.amount);
    if (amountMicro === null || amountMicro <= 0n) throw new WithdrawalsException('invalid_amount');
    const destination = body.destinationAddress;
    // Before anything is taken: an address that can never pay the operator is refused here,
    // not by the chain after the SSL left the wallet (docs/withdrawals.md#a-withdrawal).
    const problem = destinationProblem(destination, settings.treasury.address);
    if (problem) throw new WithdrawalsException(problem, { destination });
    const quote = withdrawalQuote(amountMicro, solana.sslPerSol);
    const now = this.clock.now();

    const result = await this.transactions.retrying(() =>
      this.idempotency.once(
        ownerUuid,
        idempotencyKey,
        { route: 'withdraw', body: { amount: sslText(amountMicro), destination } },
        async (tx): Promise<WithdrawResponse> => {
          const wallet = await this.ledger.lockAvailable(tx, 'node_wallet', ownerUuid, now);
          const day = utcDay(now);
          const limits = {
            availableMicro: wallet.availableMicro,
            minimumMicro: settings.minimumMicro,
            dailyCapMicro: settings.dailyCapMicro,
            usedTodayMicro: await this.repository.usedBetween(tx, ownerUuid, day.start, day.end),
          };
          const refused = amountProblem(amountMicro, limits);
          if (refused) {
            throw new WithdrawalsException(refused, {
              minimumMicro: limits.minimumMicro,
              availableMicro: limits.availableMicro,
              dailyCapMicro: limits.dailyCapMicro,
              leftTodayMicro: leftTodayMicro(limits),
            });
          }
          const id = randomUUID();
          const ledgerTransactionId = await this.ledger.lockAndPost(tx, {
            type: 'withdrawal',
            postings: [
              { account: { wallet: 'node_wallet', ownerUuid }, amountMicro: -amountMicro },
              { account: { system: 'platform_revenue' }, amountMicro: quote.feeMicro },
              { account: { system: 'external' }, amountMicro: quote.netMicro },
            ],
            initiatorUuid: ownerUuid,
            description: `Withdrawal to ${destination}`,
            describedAs: { code: 'withdrawal', values: { destination } },
            externalRef: `payout:${id}`,
          });
          const row = await this.repository.insert(tx, {
            id,
            ownerUuid,
            amountMicro,
            feeMicro: quote.feeMicro,
            netMicro: quote.netMicro,
            sslPerSol: quote.sslPerSol,
            lamports: quote.lamports,
            destination,
            idempotencyKey: idempotencyKey ?? null,
            ledgerTransactionId,
            createdAt: now,
          });
          return {
            success: true,
            message: withdrawalSuccessMessage(amountMicro, destination),
            withdrawal: this.view(row),
          };
        },
      ),
    );
    // The immediate attempt (the payout job, unless a run is going: its next tick, a second
    // later, picks the new one up); the periodic run catches anything it leaves.
    if (!result.replayed) this.scheduler.runNow(JOBS.withdrawalPayouts);
    return result.body;
  }

  /** The settings, what is left of today's cap, and the operator's withdrawals. */
  async list(ownerUuid: string): Promise<WithdrawalsResponse> {
    const settings = this.config.withdrawals;
    const solana = this.config.solana;
    const day = utcDay(this.clock.now());
    const [used, rows] = await Promise.all([
      this.repository.usedToday(ownerUuid, day.start, day.end),
      this.repository.listOwned(ownerUuid, LIST_LIMIT),
    ]);
    const dailyCapMicro = settings?.dailyCapMicro ?? 0n;
    return {
      success: true,
      settings: {
        enabled: settings !== null && solana !== null,
        minimumMicro: (settings?.minimumMicro ?? 0n).toString(),
        dailyCapMicro: dailyCapMicro.toString(),
        feePercent: ECONOMICS.withdrawalProtocolFeePercent,
        sslPerSol: settings && solana ? solana.sslPerSol : null,
        cluster: solana?.cluster ?? null,
      },
      usedTodayMicro: used.toString(),
      leftTodayMicro: leftTodayMicro({ dailyCapMicro, usedTodayMicro: used }).toString(),
      withdrawals: rows.map((row) => this.view(row)),
    };
  }

  private view(row: WithdrawalRow): Withdrawal {
    const explorer = this.config.solana ? explorerTxUrl(this.config.solana) : null;
    return {
      id: row.id,
      status: row.status,
      amountMicro: row.amountMicro.toString(),
      feeMicro: row.feeMicro.toString(),
      netMicro: row.netMicro.toString(),
      sslPerSol: row.sslPerSol,
      lamports: row.lamports.toString(),
      destinationAddress: row.destination,
      signature: row.signature,
      explorerUrl:
        row.signature && explorer ? explorer.replace('{signature}', row.signature) : null,
      failureReason: row.failureReason,
      createdAt: row.createdAt.toISOString(),
      sentAt: row.sentAt?.toISOString() ?? null,
      confirmedAt: row.confirmedAt?.toISOString() ?? null,
      failedAt: row.failedAt?.toISOString() ?? null,
    };
  }
}
