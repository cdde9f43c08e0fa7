import { Inject, Injectable } from '@nestjs/common';
import { lamportsToSol } from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import { TransactionRunner } from '../database/transaction-runner';
import { RealtimeGateway } from '../realtime/realtime.gateway';
import { LedgerService } from '../wallet/ledger.service';
import { DepositMetrics } from './deposit-metrics';
import { DepositsException } from './deposits.exception';
import { type DepositRequestRow, DepositsRepository } from './deposits.repository';
import type { ChainTransaction } from './solana-chain';

export interface Credited {
  signature: string;
  creditMicro: bigint;
  lamports: bigint;
  /** False when this signature had been credited to this request before (idempotent answer). */
  fresh: boolean;
}

/**
 * Credits a verified transfer once: in one database transaction, the credit row
 * (unique per signature and per request), the request marked credited, and the ledger's
 * `deposit` movement from `external` to the wallet (external_ref `sol:<signature>`, unique as
 * well). Concurrent verifies and the watcher race only at the insert, which the database
 * decides; the losers read what won.
 */
@Injectable()
export class DepositCreditService {
  constructor(
    private readonly repository: DepositsRepository,
    private readonly transactions: TransactionRunner,
    private readonly ledger: LedgerService,
    private readonly realtime: RealtimeGateway,
    private readonly metrics: DepositMetrics,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async credit(
    request: DepositRequestRow,
    tx: ChainTransaction,
    sender: string,
  ): Promise<Credited> {
    const inserted = await this.transactions.runRetrying(async (db) => {
      const now = this.clock.now();
      const won = await this.repository.insertCredit(db, {
        signature: tx.signature,
        requestId: request.id,
        ownerUuid: request.ownerUuid,
        lamports: request.lamports,
        sslPerSol: request.sslPerSol,
        creditMicro: request.creditMicro,
        sender,
        blockTime: tx.blockTime,
        createdAt: now,
      });
      if (!won) return false;
      if (!(await this.repository.markCredited(db, request.id, tx.signature, now))) {
        // Unreachable while credits are unique per request; never credit twice if it were.
        throw new DepositsException('already_credited');
      }
      await this.ledger.lockAndPost(db, {
        type: 'deposit',
        postings: [
          { account: { system: 'external' }, amountMicro: -request.creditMicro },
          {
            account: { wallet: request.walletKind, ownerUuid: request.ownerUuid },
            amountMicro: request.creditMicro,
          },
        ],
        initiatorUuid: request.ownerUuid,
        description: `SOL deposit: ${lamportsToSol(request.lamports)} SOL at ${request.sslPerSol} SSL/SOL`,
        describedAs: {
          code: 'sol_deposit',
          values: { sol: lamportsToSol(request.lamports), sslPerSol: request.sslPerSol },
        },
        externalRef: `sol:${tx.signature}`,
      });
      return true;
    });
    if (inserted) {
      this.metrics.credited('request');
      this.realtime.walletUpdated(request.ownerUuid, 'deposit');
      return { ...this.amounts(request, tx.signature), fresh: true };
    }
    return this.existing(request, tx.signature);
  }

  /** The answer for a signature or request credited before: the same, or a refusal. */
  async existing(request: DepositRequestRow, signature: string): Promise<Credited> {
    const bySignature = await this.repository.findCredit({ signature });
    if (bySignature) {
      if (bySignature.ownerUuid !== request.ownerUuid) {
        throw new DepositsException('credited_elsewhere');
      }
      if (bySignature.requestId !== request.id) throw new DepositsException('already_credited');
      return { ...this.amounts(request, signature), fresh: false };
    }
    // The request was credited by another signature.
    throw new DepositsException('already_credited');
  }

  private amounts(request: DepositRequestRow, signature: string) {
    return { signature, creditMicro: request.creditMicro, lamports: request.lamports };
  }
}
