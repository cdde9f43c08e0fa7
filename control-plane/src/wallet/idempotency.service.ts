import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { type Transaction, TransactionRunner } from '../database/transaction-runner';
import { IdempotencyRepository } from './idempotency.repository';
import { WalletException } from './wallet.exception';

const KEY_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;

export interface IdempotencyClaim {
  key: string;
  /** sha256 of the route and body: a key reused for another request is refused. */
  requestHash: string;
}

export interface IdempotentResult<T> {
  body: T;
  /** True when this is the stored answer of an earlier request with the same key. */
  replayed: boolean;
}

/**
 * `Idempotency-Key` for payment calls. The key is claimed by an INSERT in the same database
 * transaction as the payment and stored with its answer at commit: a replay (even one sent
 * while the first is still running: its INSERT waits for the first to commit) returns the
 * first answer and moves nothing. A payment that fails rolls its key back, so the client may
 * retry it after fixing the cause (e.g. a deposit after "insufficient balance").
 */
@Injectable()
export class IdempotencyService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly repository: IdempotencyRepository,
  ) {}

  async once<T>(
    ownerUuid: string,
    key: string | undefined,
    request: { route: string; body: unknown },
    work: (tx: Transaction) => Promise<T>,
  ): Promise<IdempotentResult<T>> {
    const claim = this.claimOf(key, request);
    if (!claim) return { body: await this.transactions.run(work), replayed: false };

    const outcome = await this.transactions.run(async (tx) => {
      if (!(await this.repository.claim(tx, ownerUuid, claim.key, claim.requestHash))) {
        return { claimed: false as const };
      }
      const body = await work(tx);
      await this.repository.answer(tx, ownerUuid, claim.key, body);
      return { claimed: true as const, body };
    });
    if (outcome.claimed) return { body: outcome.body, replayed: false };
    return { body: await this.replay<T>(ownerUuid, claim), replayed: true };
  }

  /**
   * The key and the fingerprint of the request it is sent with (for callers that claim the key
   * themselves, in their own statement); undefined without a key. Refuses a malformed key.
   */
  claimOf(
    key: string | undefined,
    request: { route: string; body: unknown },
  ): IdempotencyClaim | undefined {
    if (key === undefined) return undefined;
    if (!KEY_PATTERN.test(key)) throw new WalletException('idempotency_key_invalid');
    const requestHash = createHash('sha256')
      .update(JSON.stringify([request.route, request.body]))
      .digest('hex');
    return { key, requestHash };
  }

  /**
   * The answer stored under a key that was already taken (committed: a claim waits for the
   * first request's transaction). The same key with another request is refused.
   */
  async replay<T>(ownerUuid: string, claim: IdempotencyClaim): Promise<T> {
    const first = await this.repository.find<T>(ownerUuid, claim.key);
    if (!first || first.requestHash !== claim.requestHash) {
      throw new WalletException('idempotency_key_reused');
    }
    return first.response;
  }
}
