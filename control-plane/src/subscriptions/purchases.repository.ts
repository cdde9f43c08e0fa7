import { randomUUID } from 'node:crypto';
import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { BillingCycle } from '@scn/proto';
import type { DataSource } from 'typeorm';
import { KeyFailure, KeyedBatcher } from '../common/keyed-batcher';
import { queryPrepared, RETRYABLE_SQL_STATES } from '../common/sql';
import { CLIENT_SET_CHANNEL } from '../client-sets/client-sets.repository';
import type { PlannedTransaction } from '../wallet/ledger.service';

/** One priced and checked purchase, as `subscription_purchase` (subscriptions/sql) takes it. */
export interface PurchaseWrite {
  owner: string;
  /** The Idempotency-Key and its request's fingerprint, or null for a purchase without one. */
  key: string | null;
  requestHash: string | null;
  subscription: {
    id: string;
    vlessUuid: string;
    billingCycle: BillingCycle;
    expiresAt: string;
    urlTokenHash: string;
    urlTokenSealed: string;
    createdAt: string;
  };
  /**
   * In the client's order. A server's capacity is its tier's (client_sets_take, from VPS_TIERS);
   * `capacity` overrides it where a test needs a server that fills up sooner.
   */
  servers: Array<{ id: string; capacity?: number }>;
  /** What the client's wallet must cover (0 in the launch period). */
  debitMicro: string;
  transactions: PlannedTransaction[];
  /** The answer stored under the key; the database adds `balanceMicro` after the payment. */
  response: unknown;
}

export type PurchaseOutcome =
  | { status: 'written'; balanceMicro: bigint; changedServers: string[] }
  /** The key was taken by an earlier request: nothing was written. */
  | { status: 'replayed' }
  | { status: 'server_not_found'; serverId: string }
  | { status: 'server_full'; serverId: string }
  | { status: 'insufficient_balance'; balanceMicro: bigint; requiredMicro: bigint }
  /** A deadlock or serialization failure rolled it back: it may run again. */
  | { status: 'retry' };

type BatchResult =
  | { ok: { replayed: true } | { replayed: false; balanceMicro: string; changedServers: string[] } }
  | { error: string; message: string; detail: string | null };

const MAX_BATCH = 100;

/** A purchase the database failed for a reason that is not a refusal (answered as a 500). */
export class PurchaseFailed extends Error {
  constructor(
    readonly sqlState: string,
    message: string,
  ) {
    super(`purchase failed (${sqlState}): ${message}`);
  }
}

/**
 * The purchase's database access: one checked and priced purchase in, its outcome out. It is a
 * repository (the only code here that sends the purchase SQL) that batches: it writes purchases
 * in batches (group commit, KeyedBatcher): what arrives while a batch is in the
 * database goes together in the next one, as one statement, `subscription_purchase_batch`, one
 * transaction. Each purchase runs in its own subtransaction, in order, so a refused or failed
 * purchase rolls back alone and two purchases of one client in one batch see each other's debit.
 * A purchase costs about 1/n of a round trip instead of 11.
 *
 * A batch that fails as a whole (the connection lost, say) fails each of its purchases with a
 * 500 and is not sent again: whether it committed is unknown, and a client that retries with its
 * Idempotency-Key gets the stored answer if it did.
 */
@Injectable()
export class PurchasesRepository implements OnModuleDestroy {
  private readonly batcher = new KeyedBatcher<PurchaseWrite, PurchaseOutcome>(
    (batch) => this.writeBatch(batch),
    { status: 'retry' },
    MAX_BATCH,
  );

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  write(purchase: PurchaseWrite): Promise<PurchaseOutcome> {
    return this.batcher.submit(randomUUID(), purchase);
  }

  async onModuleDestroy(): Promise<void> {
    await this.batcher.drain();
  }

  private async writeBatch(
    batch: ReadonlyMap<string, PurchaseWrite>,
  ): Promise<Map<string, PurchaseOutcome | KeyFailure>> {
    const keys = [...batch.keys()];
    const rows = await queryPrepared<{ results: BatchResult[] }>(
      this.dataSource,
      `SELECT subscription_purchase_batch($1::jsonb, $2) AS results`,
      [JSON.stringify([...batch.values()]), CLIENT_SET_CHANNEL],
    );
    const results = rows[0]!.results;
    if (results.length !== keys.length) {
      // Cannot happen (one result per purchase); if it did, nobody knows which committed.
      throw new Error(`purchase batch answered ${results.length} results for ${keys.length}`);
    }
    return new Map(keys.map((key, i) => [key, outcomeOf(results[i]!)]));
  }
}

function outcomeOf(result: BatchResult): PurchaseOutcome | KeyFailure {
  if ('ok' in result) {
    const ok = result.ok;
    return ok.replayed
      ? { status: 'replayed' }
      : {
          status: 'written',
          balanceMicro: BigInt(ok.balanceMicro),
          changedServers: ok.changedServers,
        };
  }
  switch (result.error) {
    case 'SCN00':
      return { status: 'replayed' };
    case 'SCN04':
      return { status: 'server_not_found', serverId: result.message };
    case 'SCN09':
      return { status: 'server_full', serverId: result.message };
    case 'SCN02':
      return {
        status: 'insufficient_balance',
        balanceMicro: BigInt(result.message),
        requiredMicro: BigInt(result.detail ?? '0'),
      };
    default:
      if (RETRYABLE_SQL_STATES.has(result.error)) return { status: 'retry' };
      return new KeyFailure(new PurchaseFailed(result.error, result.message));
  }
}
