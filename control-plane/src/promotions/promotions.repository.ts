import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';
import type { Transaction } from '../database/transaction-runner';

/** One of the operator's servers as a promotion reads it (its market listing and account). */
export interface PromotedServerRow {
  serverId: string;
  name: string;
  premium: boolean;
  /** The listing's promotion end (null: never promoted). */
  promotedUntil: Date | null;
  /** Paid for the promotion running now (null when none was bought yet). */
  promotionMicro: bigint | null;
  /** Paid for every promotion of the server (the cap counts it). */
  amountPaidMicro: bigint;
}

export interface PromotionRecord {
  id: string;
  serverId: string;
  ownerUuid: string;
  plan: string;
  days: number;
  costMicro: bigint;
  burnMicro: bigint;
  poolMicro: bigint;
  /** The promotion's end after this purchase. */
  expiresAt: Date;
  /** What the promotion running from now on has cost (an upgrade adds to the current one). */
  runningMicro: bigint;
  ledgerTransactionId: string;
  now: Date;
}

interface Row {
  server_id: string;
  name: string;
  premium: boolean;
  promoted_until: Date | null;
  promotion_micro: string | null;
  amount_paid_micro: string | null;
}

const SELECT = `SELECT l.server_id, s.name, l.premium, l.promoted_until, l.promotion_micro::text,
    p.amount_paid_micro::text
  FROM listing_directory l
  JOIN server_directory s ON s.id = l.server_id
  LEFT JOIN server_promotions p ON p.server_id = l.server_id
  WHERE l.server_id = $1 AND s.owner_uuid = $2`;

function toServer(row: Row): PromotedServerRow {
  return {
    serverId: row.server_id,
    name: row.name,
    premium: row.premium,
    promotedUntil: row.promoted_until,
    promotionMicro: row.promotion_micro === null ? null : BigInt(row.promotion_micro),
    amountPaidMicro: BigInt(row.amount_paid_micro ?? '0'),
  };
}

/**
 * The only SQL of promotions: the server's promotion account (`server_promotions`), the purchases,
 * and the promotion columns of its market listing (the one part of market_listings written by the
 * application besides the sweep's: market-listing.entity.ts). Every read is scoped by the owner.
 */
@Injectable()
export class PromotionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The server if `ownerUuid` owns it (null otherwise: not found, whoever's it is). */
  async owned(ownerUuid: string, serverId: string): Promise<PromotedServerRow | null> {
    const [row] = await queryRows<Row>(this.dataSource, SELECT, [serverId, ownerUuid]);
    return row ? toServer(row) : null;
  }

  /**
   * `owned`, with the server's market listing locked until the transaction ends: every promotion
   * of one server is decided one at a time (the cap, the expiry it extends). A purchase also
   * locks a listing before the wallet it debits, as a promotion does next: one lock order.
   */
  async lockOwned(
    tx: Transaction,
    ownerUuid: string,
    serverId: string,
  ): Promise<PromotedServerRow | null> {
    const locked = await queryRows<{ server_id: string }>(
      tx,
      `SELECT l.server_id FROM listing_directory l JOIN server_directory s ON s.id = l.server_id
       WHERE l.server_id = $1 AND s.owner_uuid = $2 FOR NO KEY UPDATE OF l`,
      [serverId, ownerUuid],
    );
    if (locked.length === 0) return null;
    // Read after the lock, in a statement of its own: a statement that waited for the lock sees
    // the locked row as the holder committed it, but the rows it joins as they were before.
    const [row] = await queryRows<Row>(tx, SELECT, [serverId, ownerUuid]);
    return row ? toServer(row) : null;
  }

  /**
   * Writes a paid promotion: the server's total (its CHECK refuses a total past the cap), the
   * purchase, and the listing's promotion (promoted from now until `expiresAt`, newest now).
   */
  async record(tx: Transaction, record: PromotionRecord): Promise<void> {
    await tx.query(
      `INSERT INTO server_promotions (server_id, amount_paid_micro, expires_at, updated_at)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (server_id) DO UPDATE SET
         amount_paid_micro = server_promotions.amount_paid_micro + EXCLUDED.amount_paid_micro,
         expires_at = EXCLUDED.expires_at, updated_at = EXCLUDED.updated_at`,
      [record.serverId, record.costMicro.toString(), record.expiresAt, record.now],
    );
    await tx.query(
      `INSERT INTO promotion_purchases (id, server_id, owner_uuid, plan, days, cost_micro,
         burn_micro, pool_micro, expires_at, ledger_transaction_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        record.id,
        record.serverId,
        record.ownerUuid,
        record.plan,
        record.days,
        record.costMicro.toString(),
        record.burnMicro.toString(),
        record.poolMicro.toString(),
        record.expiresAt,
        record.ledgerTransactionId,
        record.now,
      ],
    );
    await tx.query(
      `UPDATE market_listings SET promoted_at = $2, promoted_until = $3, promoted = true,
         promotion_micro = $4
       WHERE server_id = $1`,
      [record.serverId, record.now, record.expiresAt, record.runningMicro.toString()],
    );
  }
}
