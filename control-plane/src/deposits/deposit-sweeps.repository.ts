import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';
import type { SignedPayout } from '../withdrawals/withdrawals.repository';
import type { SweepPlan } from './deposit-sweep-transaction';

/** A deposit address whose funds are due to be swept. */
export interface DueAddress {
  address: string;
  derivationIndex: number;
}

/** A sweep signed, stored and maybe sent, not yet settled. */
export interface InFlightSweep {
  id: string;
  address: string;
  signature: string;
  signedTransaction: string;
  lastValidBlockHeight: number;
}

export type SweepOutcome = 'done' | 'failed' | 'expired';

/** How long an address whose sweep failed on chain waits before another is tried. */
const RETRY_AFTER_FAILURE = '10 minutes';

/** The only SQL of sweeps (docs/deposits.md#sweeps). */
@Injectable()
export class DepositSweepsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Addresses with sweep_due_at set and no sweep in flight, oldest first. */
  async due(limit: number): Promise<DueAddress[]> {
    const rows = await queryRows<{ address: string; derivation_index: number }>(
      this.dataSource,
      `SELECT a.address, a.derivation_index FROM deposit_addresses a
        WHERE a.sweep_due_at IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM deposit_sweeps s WHERE s.address = a.address
                AND (s.status = 'sent'
                  OR (s.status = 'failed' AND s.settled_at > now() - interval '${RETRY_AFTER_FAILURE}')))
        ORDER BY a.sweep_due_at, a.address LIMIT $1`,
      [limit],
    );
    return rows.map((row) => ({ address: row.address, derivationIndex: row.derivation_index }));
  }

  async inFlight(limit: number): Promise<InFlightSweep[]> {
    const rows = await queryRows<{
      id: string;
      address: string;
      signature: string;
      signed_transaction: string;
      last_valid_block_height: string;
    }>(
      this.dataSource,
      `SELECT id, address, signature, signed_transaction, last_valid_block_height
         FROM deposit_sweeps WHERE status = 'sent' ORDER BY created_at, id LIMIT $1`,
      [limit],
    );
    return rows.map((row) => ({
      id: row.id,
      address: row.address,
      signature: row.signature,
      signedTransaction: row.signed_transaction,
      lastValidBlockHeight: Number(row.last_valid_block_height),
    }));
  }

  /**
   * Stores a signed sweep as `sent`, before it is sent; its id, or null when the address already has one
   * in flight (null: the unique in-flight index decides between replicas, not a prior read).
   */
  async insertSent(
    address: string,
    plan: SweepPlan,
    signed: SignedPayout,
    createdAt: Date,
  ): Promise<string | null> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `INSERT INTO deposit_sweeps (address, signature, signed_transaction, last_valid_block_height,
              lamports, tokens, status, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'sent', $7) ON CONFLICT DO NOTHING RETURNING id`,
      [
        address,
        signed.signature,
        signed.signedTransaction,
        signed.lastValidBlockHeight,
        plan.lamports.toString(),
        JSON.stringify(plan.tokens.map((t) => ({ mint: t.mint, baseUnits: t.amount.toString() }))),
        createdAt,
      ],
    );
    return rows[0]?.id ?? null;
  }

  /**
   * sent -> its outcome; on `done`, sweep_due_at is cleared if it was set at or before the
   * sweep read the balances (created_at): a credit after that leaves it due. False when another
   * run settled it first.
   */
  async settle(id: string, outcome: SweepOutcome, error: string | null, now: Date) {
    const rows = await queryRows<{ settled: string }>(
      this.dataSource,
      `WITH s AS (
         UPDATE deposit_sweeps SET status = $2, error = $3, settled_at = $4
          WHERE id = $1 AND status = 'sent' RETURNING address, created_at),
       cleared AS (
         UPDATE deposit_addresses a SET sweep_due_at = NULL FROM s
          WHERE $2 = 'done' AND a.address = s.address AND a.sweep_due_at <= s.created_at
          RETURNING 1)
       SELECT (SELECT count(*) FROM s) AS settled`,
      [id, outcome, error, now],
    );
    return rows[0]?.settled === '1';
  }

  /** Nothing was left to sweep at `readAt`: clears sweep_due_at if it was set by then. */
  async clearDue(address: string, readAt: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE deposit_addresses SET sweep_due_at = NULL WHERE address = $1 AND sweep_due_at <= $2`,
      [address, readAt],
    );
  }
}
