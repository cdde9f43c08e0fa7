import { Injectable } from '@nestjs/common';
import type { WithdrawalStatus } from '@scn/proto';
import { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';
import type { Transaction } from '../database/transaction-runner';

export interface WithdrawalRow {
  id: string;
  ownerUuid: string;
  status: WithdrawalStatus;
  amountMicro: bigint;
  feeMicro: bigint;
  netMicro: bigint;
  sslPerSol: number;
  lamports: bigint;
  destination: string;
  signature: string | null;
  lastValidBlockHeight: number | null;
  signedTransaction: string | null;
  sendAttempts: number;
  failureReason: string | null;
  createdAt: Date;
  sentAt: Date | null;
  confirmedAt: Date | null;
  failedAt: Date | null;
}

export interface NewWithdrawal {
  id: string;
  ownerUuid: string;
  amountMicro: bigint;
  feeMicro: bigint;
  netMicro: bigint;
  sslPerSol: number;
  lamports: bigint;
  destination: string;
  idempotencyKey: string | null;
  ledgerTransactionId: string;
  createdAt: Date;
}

/** A signed payout, stored before it is first sent. */
export interface SignedPayout {
  signature: string;
  blockhash: string;
  lastValidBlockHeight: number;
  /** base64 wire format. */
  signedTransaction: string;
}

interface RawWithdrawal {
  id: string;
  owner_uuid: string;
  status: WithdrawalStatus;
  amount_micro: string;
  fee_micro: string;
  net_micro: string;
  ssl_per_sol: number;
  lamports: string;
  destination: string;
  signature: string | null;
  last_valid_block_height: string | null;
  signed_transaction: string | null;
  send_attempts: number;
  failure_reason: string | null;
  created_at: Date;
  sent_at: Date | null;
  confirmed_at: Date | null;
  failed_at: Date | null;
}

const COLUMNS = `id, owner_uuid, status, amount_micro, fee_micro, net_micro, ssl_per_sol, lamports,
  destination, signature, last_valid_block_height, signed_transaction, send_attempts,
  failure_reason, created_at, sent_at, confirmed_at, failed_at`;

function toRow(row: RawWithdrawal): WithdrawalRow {
  return {
    id: row.id,
    ownerUuid: row.owner_uuid,
    status: row.status,
    amountMicro: BigInt(row.amount_micro),
    feeMicro: BigInt(row.fee_micro),
    netMicro: BigInt(row.net_micro),
    sslPerSol: row.ssl_per_sol,
    lamports: BigInt(row.lamports),
    destination: row.destination,
    signature: row.signature,
    lastValidBlockHeight:
      row.last_valid_block_height === null ? null : Number(row.last_valid_block_height),
    signedTransaction: row.signed_transaction,
    sendAttempts: row.send_attempts,
    failureReason: row.failure_reason,
    createdAt: row.created_at,
    sentAt: row.sent_at,
    confirmedAt: row.confirmed_at,
    failedAt: row.failed_at,
  };
}

/** The only SQL of withdrawals. Every status change is conditional on the status it leaves. */
@Injectable()
export class WithdrawalsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(tx: Transaction, withdrawal: NewWithdrawal): Promise<WithdrawalRow> {
    const rows = await queryRows<RawWithdrawal>(
      tx,
      `INSERT INTO withdrawals (id, owner_uuid, amount_micro, fee_micro, net_micro, ssl_per_sol,
         lamports, destination, idempotency_key, ledger_transaction_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       RETURNING ${COLUMNS}`,
      [
        withdrawal.id,
        withdrawal.ownerUuid,
        withdrawal.amountMicro.toString(),
        withdrawal.feeMicro.toString(),
        withdrawal.netMicro.toString(),
        withdrawal.sslPerSol,
        withdrawal.lamports.toString(),
        withdrawal.destination,
        withdrawal.idempotencyKey,
        withdrawal.ledgerTransactionId,
        withdrawal.createdAt,
      ],
    );
    return toRow(rows[0]!);
  }

  /** The operator's withdrawals in [start, end) that did not fail (the daily cap counts them). */
  async usedBetween(
    db: Transaction | DataSource,
    ownerUuid: string,
    start: Date,
    end: Date,
  ): Promise<bigint> {
    const rows = await queryRows<{ used: string }>(
      db,
      `SELECT COALESCE(sum(amount_micro), 0)::text AS used FROM withdrawals
       WHERE owner_uuid = $1 AND created_at >= $2 AND created_at < $3 AND status <> 'failed'`,
      [ownerUuid, start, end],
    );
    return BigInt(rows[0]?.used ?? '0');
  }

  usedToday(ownerUuid: string, start: Date, end: Date): Promise<bigint> {
    return this.usedBetween(this.dataSource, ownerUuid, start, end);
  }

  /** The operator's withdrawals, newest first. */
  async listOwned(ownerUuid: string, limit: number): Promise<WithdrawalRow[]> {
    const rows = await queryRows<RawWithdrawal>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM withdrawals WHERE owner_uuid = $1
       ORDER BY created_at DESC, id DESC LIMIT $2`,
      [ownerUuid, limit],
    );
    return rows.map(toRow);
  }

  async findOwned(ownerUuid: string, id: string): Promise<WithdrawalRow | null> {
    const rows = await queryRows<RawWithdrawal>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM withdrawals WHERE owner_uuid = $1 AND id = $2`,
      [ownerUuid, id],
    );
    return rows[0] ? toRow(rows[0]) : null;
  }

  /** Withdrawals the payout worker still has to move (pending or sent), oldest first. */
  /** The withdrawals not settled yet, how many and since when per status (the metrics). */
  async backlog(): Promise<{ status: string; count: number; oldestCreatedAt: Date }[]> {
    const rows = await queryRows<{ status: string; count: number; oldest: Date }>(
      this.dataSource,
      `SELECT status, count(*)::int AS count, min(created_at) AS oldest FROM withdrawals
        WHERE status IN ('pending', 'sent') GROUP BY status`,
    );
    return rows.map((r) => ({ status: r.status, count: r.count, oldestCreatedAt: r.oldest }));
  }

  async open(limit: number): Promise<WithdrawalRow[]> {
    const rows = await queryRows<RawWithdrawal>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM withdrawals WHERE status IN ('pending', 'sent')
       ORDER BY created_at, id LIMIT $1`,
      [limit],
    );
    return rows.map(toRow);
  }

  /** pending -> sent with the signed payout; false when it was not pending any more. */
  async markSigned(id: string, payout: SignedPayout, now: Date): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `UPDATE withdrawals SET status = 'sent', signature = $2, blockhash = $3,
         last_valid_block_height = $4, signed_transaction = $5, sent_at = $6
       WHERE id = $1 AND status = 'pending' RETURNING id`,
      [
        id,
        payout.signature,
        payout.blockhash,
        payout.lastValidBlockHeight,
        payout.signedTransaction,
        now,
      ],
    );
    return rows.length === 1;
  }

  /**
   * Counts a send of a sent payout before it is made; null when it is no longer sent (settled
   * meanwhile: then it must not be sent).
   */
  async countSend(id: string): Promise<number | null> {
    const rows = await queryRows<{ send_attempts: number }>(
      this.dataSource,
      `UPDATE withdrawals SET send_attempts = send_attempts + 1
       WHERE id = $1 AND status = 'sent' RETURNING send_attempts`,
      [id],
    );
    return rows[0]?.send_attempts ?? null;
  }

  /** sent -> confirmed; false when it was not sent any more. */
  async markConfirmed(id: string, now: Date): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `UPDATE withdrawals SET status = 'confirmed', confirmed_at = $2
       WHERE id = $1 AND status = 'sent' RETURNING id`,
      [id, now],
    );
    return rows.length === 1;
  }

  /**
   * Locks a sent withdrawal for its failure; null when it is not sent any more, or (with
   * `sendAttempts`) when it was sent again since the caller decided.
   */
  async lockSent(
    tx: Transaction,
    id: string,
    sendAttempts: number | null,
  ): Promise<WithdrawalRow | null> {
    const rows = await queryRows<RawWithdrawal>(
      tx,
      `SELECT ${COLUMNS} FROM withdrawals
       WHERE id = $1 AND status = 'sent' AND ($2::int IS NULL OR send_attempts = $2::int)
       FOR UPDATE`,
      [id, sendAttempts],
    );
    return rows[0] ? toRow(rows[0]) : null;
  }

  async markFailed(
    tx: Transaction,
    id: string,
    change: { reason: string; reversalTransactionId: string; now: Date },
  ): Promise<void> {
    await tx.query(
      `UPDATE withdrawals SET status = 'failed', failure_reason = $2,
         reversal_transaction_id = $3, failed_at = $4
       WHERE id = $1 AND status = 'sent'`,
      [id, change.reason.slice(0, 300), change.reversalTransactionId, change.now],
    );
  }
}
