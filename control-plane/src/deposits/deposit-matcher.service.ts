import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '../common/clock';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { type Credited, DepositCreditService } from './deposit-credit.service';
import { isExpired } from './deposit-requests.service';
import { DepositsException, type DepositsErrorCode } from './deposits.exception';
import { type DepositRequestRow, DepositsRepository } from './deposits.repository';
import { type ChainTransaction, DEPOSIT_CHAIN, type DepositChain } from './solana-chain';
import { checkTransfer, QUOTE_GRACE_MS, type TransferCheck } from './transfer-check';

/** How many recent transfers to the deposit address the path without a reference looks at. */
const SENDER_SCAN_LIMIT = 25;
/**
 * How long one RPC call may take: the watcher holds its lock meanwhile, and a verify its
 * request; an RPC that hangs must become a 503, not a stuck job.
 */
export const RPC_TIMEOUT_MS = 10_000;

/**
 * Finds the transfer that pays a deposit request on chain and credits it (verify-deposit and
 * the watcher). A chain that does not answer is `chain_unavailable` (503), never a refusal.
 */
@Injectable()
export class DepositMatcherService {
  constructor(
    private readonly repository: DepositsRepository,
    private readonly credits: DepositCreditService,
    @Inject(DEPOSIT_CHAIN) private readonly chain: DepositChain,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Checks `tx` against the request: by its reference, else (spec's path) by sender. */
  async check(request: DepositRequestRow, tx: ChainTransaction): Promise<TransferCheck> {
    const settings = this.config.solana!;
    const expectation = {
      depositAddress: settings.depositAddress,
      lamports: request.lamports,
      commitment: settings.commitment,
      createdAt: request.createdAt,
      expiresAt: request.expiresAt,
    };
    if (tx.accountKeys.includes(request.reference)) {
      return checkTransfer(tx, { ...expectation, reference: request.reference });
    }
    const result = checkTransfer(tx, { ...expectation, sender: request.userAddress });
    if (result.ok && (await this.otherOpenMatch(request))) {
      return { ok: false, code: 'ambiguous' };
    }
    return result;
  }

  /** Verifies one request: a known signature, else its reference, else the sender path. */
  async verify(request: DepositRequestRow, signature?: string): Promise<Credited> {
    if (signature) {
      if (await this.repository.findCredit({ signature })) {
        return this.credits.existing(request, signature);
      }
      if (request.status === 'credited') throw new DepositsException('already_credited');
      const tx = await this.fetch(signature);
      if (!tx) throw new DepositsException('transaction_not_found');
      return this.creditIfPays(request, tx);
    }
    if (request.status === 'credited' && request.signature) {
      return this.credits.existing(request, request.signature);
    }
    try {
      return await this.find(request);
    } catch (error) {
      // A racing verify or the watcher may have credited the request since it was read: that
      // credit is the answer, as for any repeat (docs/deposits.md).
      if (!(error instanceof DepositsException)) throw error;
      const credit = await this.repository.findCredit({ requestId: request.id });
      if (!credit) throw error;
      return this.credits.existing(request, credit.signature);
    }
  }

  /** Finds and credits the transfer of an uncredited request: by reference, else by sender. */
  private async find(request: DepositRequestRow): Promise<Credited> {
    let refusal: DepositsErrorCode | null = null;
    const seen = await this.call(() => this.chain.signaturesFor(request.reference, { limit: 10 }));
    for (const { signature: found } of seen) {
      const outcome = await this.tryCredit(request, found);
      if ('credited' in outcome) return outcome.credited;
      refusal ??= outcome.refusal;
    }
    if (refusal) throw new DepositsException(refusal);
    if (await this.onlyOpenMatch(request)) {
      const bySender = await this.scanBySender(request);
      if (bySender) return bySender;
    }
    throw new DepositsException(
      isExpired(request, this.clock.now()) ? 'request_expired' : 'transaction_not_found',
    );
  }

  /** Credits the request from `tx` if it pays it; else the refusal (nothing credited). */
  async creditIfPays(request: DepositRequestRow, tx: ChainTransaction): Promise<Credited> {
    const result = await this.check(request, tx);
    if (!result.ok) throw new DepositsException(result.code);
    return this.credits.credit(request, tx, result.sender);
  }

  private async tryCredit(
    request: DepositRequestRow,
    signature: string,
  ): Promise<{ credited: Credited } | { refusal: DepositsErrorCode }> {
    const tx = await this.fetch(signature);
    if (!tx) return { refusal: 'not_confirmed' };
    try {
      return { credited: await this.creditIfPays(request, tx) };
    } catch (error) {
      if (error instanceof DepositsException) return { refusal: error.code };
      throw error;
    }
  }

  /** The spec's path: a recent transfer without reference from the request's sender. */
  private async scanBySender(request: DepositRequestRow): Promise<Credited | null> {
    const { depositAddress } = this.config.solana!;
    const seen = await this.call(() =>
      this.chain.signaturesFor(depositAddress, { limit: SENDER_SCAN_LIMIT }),
    );
    for (const { signature, failed } of seen) {
      if (failed || (await this.repository.findCredit({ signature }))) continue;
      const tx = await this.fetch(signature);
      if (!tx || tx.accountKeys.includes(request.reference)) continue;
      const result = await this.check(request, tx);
      if (result.ok) return this.credits.credit(request, tx, result.sender);
    }
    return null;
  }

  /** Exactly one open request of the account matches sender and amount. */
  private async onlyOpenMatch(request: DepositRequestRow): Promise<boolean> {
    const open = await this.openMatches(request);
    return open.length === 1 && open[0]!.id === request.id;
  }

  /**
   * Whether another open request of the account matches the sender and amount of `request`, so
   * a transfer without reference could be paying either. The request itself need not still be
   * open: a racing verify of the same transfer may just have credited it, and the credit's
   * unique keys then decide (the same answer for the same signature).
   */
  private async otherOpenMatch(request: DepositRequestRow): Promise<boolean> {
    const open = await this.openMatches(request);
    return open.some((other) => other.id !== request.id);
  }

  private openMatches(request: DepositRequestRow): Promise<DepositRequestRow[]> {
    return this.repository.openMatching(
      request.ownerUuid,
      request.userAddress,
      request.lamports,
      new Date(this.clock.now().getTime() - QUOTE_GRACE_MS),
    );
  }

  fetch(signature: string): Promise<ChainTransaction | null> {
    return this.call(() => this.chain.transaction(signature));
  }

  /** One RPC call: its failure or a timeout is `chain_unavailable` (503). */
  async call<T>(work: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('RPC timeout')), RPC_TIMEOUT_MS);
    });
    try {
      return await Promise.race([work(), timeout]);
    } catch {
      throw new DepositsException('chain_unavailable');
    } finally {
      clearTimeout(timer);
    }
  }
}
