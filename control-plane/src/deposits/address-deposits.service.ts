import { Inject, Injectable, Logger } from '@nestjs/common';
import type { DepositCurrency } from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { DepositAddressSettings } from '../config/solana-settings';
import { TransactionRunner, type Transaction } from '../database/transaction-runner';
import { RealtimeGateway } from '../realtime/realtime.gateway';
import { LedgerService, type PostRequest } from '../wallet/ledger.service';
import type { SignatureState } from './address-chain';
import {
  CURRENCY_DECIMALS,
  minimumOf,
  quoteMicro,
  transferCreditMicro,
  unitsText,
} from './deposit-currencies';
import { DepositMetrics } from './deposit-metrics';
import { DepositTransfersRepository, type TransferRow } from './deposit-transfers.repository';
import { incomingTransfers, touchedAddresses, type TxBalances } from './incoming-transfers';
import { reached } from './transfer-check';

/** The largest credit a ledger entry holds (bigint): beyond it a transfer is refused. */
const MAX_CREDIT_MICRO = 2n ** 63n - 1n;

/** Thrown inside the credit's transaction so that nothing of it is written. */
class CreditTooLarge extends Error {}

/**
 * Transfers to per-account deposit addresses (docs/deposits.md#per-account-addresses), from
 * whichever path saw them first (the block watcher, a verify call, another replica): recorded
 * once per (signature, address, asset) by the unique index, then credited once when final.
 * Every credit of one address runs under that address's row lock, so the minimum's running
 * total and two paths crediting the same transfer never race.
 */
@Injectable()
export class AddressDepositsService {
  private readonly logger = new Logger(AddressDepositsService.name);

  constructor(
    private readonly repository: DepositTransfersRepository,
    private readonly transactions: TransactionRunner,
    private readonly ledger: LedgerService,
    private readonly realtime: RealtimeGateway,
    private readonly metrics: DepositMetrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Null when per-account addresses are off. */
  get settings(): DepositAddressSettings | null {
    return this.config.solana?.depositAddresses ?? null;
  }

  /**
   * Records the transfers `txs` made to deposit addresses (one database query for all their
   * keys), and credits those already at the configured commitment. Answers how many were new.
   */
  async record(
    txs: readonly TxBalances[],
    state: (tx: TxBalances) => SignatureState,
  ): Promise<number> {
    const settings = this.settings;
    if (!settings) return 0;
    const candidates = txs.filter((tx) => !tx.failed);
    const owners = await this.repository.owners([...new Set(candidates.flatMap(touchedAddresses))]);
    if (owners.size === 0) return 0;
    const watched = new Set(owners.keys());
    let recorded = 0;
    for (const tx of candidates) {
      const transfers = incomingTransfers(tx, watched, settings);
      for (const transfer of transfers) {
        const owner = owners.get(transfer.address)!;
        const id = await this.repository.insert({
          ...transfer,
          ownerUuid: owner.ownerUuid,
          walletKind: owner.walletKind,
          status: transfer.refusedReason ? 'refused' : 'confirming',
          slot: tx.slot,
          blockTime: tx.blockTime,
          seenAt: this.clock.now(),
        });
        if (!id) continue;
        recorded += 1;
        if (transfer.refusedReason) {
          this.metrics.failed('address', transfer.refusedReason);
          this.logger.warn(
            { signature: tx.signature, address: transfer.address, reason: transfer.refusedReason },
            'a transfer to a deposit address was refused',
          );
          continue;
        }
        this.realtime.walletUpdated(owner.ownerUuid, 'deposit_seen');
      }
      if (transfers.length > 0 && this.isFinal(state(tx))) {
        for (const row of await this.repository.bySignature(tx.signature)) {
          if (row.status === 'confirming') await this.settle(row);
        }
      }
    }
    return recorded;
  }

  /** Whether a transaction's state is final for crediting (the configured commitment). */
  isFinal(state: SignatureState): boolean {
    return !state.failed && reached(state.confirmation, this.config.solana!.commitment);
  }

  /**
   * A transfer reached the commitment: credited at the quote in force now when it carries the
   * minimum; else it waits, and is credited with the others waiting at the address once their
   * total reaches the minimum. Answers the micro-SSL credited (0 when nothing was).
   */
  async settle(transfer: TransferRow): Promise<bigint> {
    const settings = this.settings;
    if (!settings || !transfer.currency) return 0n;
    const currency = transfer.currency;
    const credited = await this.transactions
      .runRetrying(async (db) => {
        await this.repository.lockAddress(db, transfer.address);
        const row = await this.repository.find(db, transfer.id);
        if (!row || row.status !== 'confirming') return 0n;
        const now = this.clock.now();
        const quote = quoteMicro(currency, this.config.solana!.sslPerSol);
        const minimum = minimumOf(currency, settings);
        if (row.baseUnits >= minimum)
          return this.credit(db, [{ ...row, sslPerUnitMicro: quote }], now);
        await this.repository.markWaiting(db, row.id, quote, now);
        const waiting = await this.repository.waitingForMinimum(db, row.address, row.asset);
        const total = waiting.reduce((sum, w) => sum + w.baseUnits, 0n);
        return total >= minimum ? this.credit(db, waiting, now) : 0n;
      })
      .catch((error: unknown) => {
        if (error instanceof CreditTooLarge) return null;
        throw error;
      });
    if (credited === null) {
      // The credit would not fit a ledger entry: refused, never credited (it stays on chain).
      if (await this.repository.markUncredited(transfer.id, 'refused', 'too_large'))
        this.metrics.failed('address', 'too_large');
      return 0n;
    }
    if (credited > 0n) {
      this.metrics.credited('address');
      this.realtime.walletUpdated(transfer.ownerUuid, 'deposit');
    }
    return credited;
  }

  /** A transfer that never reached the commitment (or failed on chain): dropped, never credited. */
  async drop(transfer: TransferRow): Promise<void> {
    if (await this.repository.markUncredited(transfer.id, 'dropped', null))
      this.metrics.failed('address', 'dropped');
  }

  /**
   * Credits `rows` (one address, each with its quote) in `db`: each its own ledger movement
   * from `external` (external_ref unique per transfer), the address marked due for a sweep.
   * Throws CreditTooLarge (rolling the whole transaction back) when a credit would not fit.
   */
  private async credit(db: Transaction, rows: TransferRow[], now: Date): Promise<bigint> {
    let total = 0n;
    for (const row of rows) {
      const currency = row.currency as DepositCurrency;
      const creditMicro = transferCreditMicro(currency, row.baseUnits, row.sslPerUnitMicro!);
      if (total + creditMicro > MAX_CREDIT_MICRO) throw new CreditTooLarge();
      if (creditMicro <= 0n) continue;
      const won = await this.repository.markCredited(
        db,
        row.id,
        { rate: row.sslPerUnitMicro!, creditMicro },
        now,
      );
      if (!won) continue;
      await this.ledger.lockAndPost(db, {
        type: 'deposit',
        postings: [
          { account: { system: 'external' }, amountMicro: -creditMicro },
          {
            account: { wallet: row.walletKind, ownerUuid: row.ownerUuid },
            amountMicro: creditMicro,
          },
        ],
        initiatorUuid: row.ownerUuid,
        ...this.described(row, currency),
        externalRef: `addr:${row.signature}:${row.asset}:${row.address}`,
      });
      total += creditMicro;
    }
    if (total > 0n) await this.repository.markSweepDue(db, rows[0]!.address, now);
    return total;
  }

  private described(
    row: TransferRow,
    currency: DepositCurrency,
  ): Pick<PostRequest, 'description' | 'describedAs'> {
    const amount = unitsText(row.baseUnits, CURRENCY_DECIMALS[currency]);
    if (currency === 'SOL') {
      const sslPerSol = Number(row.sslPerUnitMicro! / 1_000_000n);
      return {
        description: `SOL deposit: ${amount} SOL at ${sslPerSol} SSL/SOL`,
        describedAs: { code: 'sol_deposit', values: { sol: amount, sslPerSol } },
      };
    }
    return {
      description: `${currency} deposit: ${amount} ${currency} at $1 = 28.571428 SSL`,
      describedAs: { code: 'token_deposit', values: { currency, amount } },
    };
  }
}
