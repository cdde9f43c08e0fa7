import { Injectable } from '@nestjs/common';
import type { DepositRefusal, DepositTransferStatus } from '@scn/proto';
import { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';
import type { Transaction } from '../database/transaction-runner';
import type { WalletKind } from './deposit-addresses.repository';

/** A deposit address with its owner, as the watcher and the credit need it. */
export interface AddressOwner {
  address: string;
  ownerUuid: string;
  walletKind: WalletKind;
}

export interface TransferRow {
  id: string;
  signature: string;
  address: string;
  ownerUuid: string;
  walletKind: WalletKind;
  asset: string;
  currency: 'SOL' | 'USDC' | 'USDT' | null;
  baseUnits: bigint;
  decimals: number;
  status: DepositTransferStatus;
  refusedReason: DepositRefusal | null;
  sslPerUnitMicro: bigint | null;
  creditMicro: bigint | null;
  seenAt: Date;
  creditedAt: Date | null;
}

export interface NewTransfer {
  signature: string;
  address: string;
  ownerUuid: string;
  walletKind: WalletKind;
  asset: string;
  currency: string | null;
  tokenProgram: string | null;
  baseUnits: bigint;
  decimals: number;
  status: 'confirming' | 'refused';
  refusedReason: DepositRefusal | null;
  slot: number;
  blockTime: Date | null;
  seenAt: Date;
}

interface RawTransfer {
  id: string;
  signature: string;
  address: string;
  owner_uuid: string;
  wallet_kind: WalletKind;
  asset: string;
  currency: TransferRow['currency'];
  base_units: string;
  decimals: number;
  status: DepositTransferStatus;
  refused_reason: DepositRefusal | null;
  ssl_per_unit_micro: string | null;
  credit_micro: string | null;
  seen_at: Date;
  credited_at: Date | null;
}

const COLUMNS = `id, signature, address, owner_uuid, wallet_kind, asset, currency, base_units,
  decimals, status, refused_reason, ssl_per_unit_micro, credit_micro, seen_at, credited_at`;

const toRow = (raw: RawTransfer): TransferRow => ({
  id: raw.id,
  signature: raw.signature,
  address: raw.address,
  ownerUuid: raw.owner_uuid,
  walletKind: raw.wallet_kind,
  asset: raw.asset,
  currency: raw.currency,
  baseUnits: BigInt(raw.base_units),
  decimals: raw.decimals,
  status: raw.status,
  refusedReason: raw.refused_reason,
  sslPerUnitMicro: raw.ssl_per_unit_micro === null ? null : BigInt(raw.ssl_per_unit_micro),
  creditMicro: raw.credit_micro === null ? null : BigInt(raw.credit_micro),
  seenAt: raw.seen_at,
  creditedAt: raw.credited_at,
});

/** The block reader's cursor row (deposit_watch_cursor). */
const CURSOR = 'blocks';

/** The only SQL of transfers to per-account addresses and of the watcher's cursor. */
@Injectable()
export class DepositTransfersRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Whether any account has a deposit address yet (no address: nothing to watch). */
  async anyAddress(): Promise<boolean> {
    const rows = await queryRows(this.dataSource, `SELECT 1 FROM deposit_addresses LIMIT 1`);
    return rows.length > 0;
  }

  /** Which of `addresses` are deposit addresses, with their owners (one query per block). */
  async owners(addresses: readonly string[]): Promise<Map<string, AddressOwner>> {
    if (addresses.length === 0) return new Map();
    const rows = await queryRows<{ address: string; owner_uuid: string; wallet_kind: WalletKind }>(
      this.dataSource,
      `SELECT address, owner_uuid, wallet_kind FROM deposit_addresses WHERE address = ANY($1)`,
      [addresses],
    );
    return new Map(
      rows.map((r) => [
        r.address,
        { address: r.address, ownerUuid: r.owner_uuid, walletKind: r.wallet_kind },
      ]),
    );
  }

  async cursor(): Promise<number | null> {
    const rows = await queryRows<{ slot: string }>(
      this.dataSource,
      `SELECT slot FROM deposit_watch_cursor WHERE name = $1`,
      [CURSOR],
    );
    return rows[0] ? Number(rows[0].slot) : null;
  }

  /** Moves the cursor to `slot` (never backwards: a late replica cannot rewind it). */
  async setCursor(slot: number, at: Date): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO deposit_watch_cursor (name, slot, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO UPDATE
         SET slot = GREATEST(deposit_watch_cursor.slot, EXCLUDED.slot), updated_at = EXCLUDED.updated_at`,
      [CURSOR, slot, at],
    );
  }

  /** Records a transfer once: the id when this call recorded it, null when it was known. */
  async insert(transfer: NewTransfer): Promise<string | null> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `INSERT INTO deposit_transfers (signature, address, owner_uuid, wallet_kind, asset, currency,
         token_program, base_units, decimals, status, refused_reason, slot, block_time, seen_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       ON CONFLICT (signature, address, asset) DO NOTHING
       RETURNING id`,
      [
        transfer.signature,
        transfer.address,
        transfer.ownerUuid,
        transfer.walletKind,
        transfer.asset,
        transfer.currency,
        transfer.tokenProgram,
        transfer.baseUnits.toString(),
        transfer.decimals,
        transfer.status,
        transfer.refusedReason,
        transfer.slot,
        transfer.blockTime,
        transfer.seenAt,
      ],
    );
    return rows[0]?.id ?? null;
  }

  /** The transfers a transaction made to deposit addresses (all, or one address's). */
  async bySignature(signature: string, address?: string): Promise<TransferRow[]> {
    const rows = await queryRows<RawTransfer>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM deposit_transfers
        WHERE signature = $1 AND ($2::varchar IS NULL OR address = $2) ORDER BY asset`,
      [signature, address ?? null],
    );
    return rows.map(toRow);
  }

  /** Seen and not yet at the commitment, oldest first. */
  async confirming(limit: number): Promise<TransferRow[]> {
    const rows = await queryRows<RawTransfer>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM deposit_transfers WHERE status = 'confirming'
        ORDER BY seen_at LIMIT $1`,
      [limit],
    );
    return rows.map(toRow);
  }

  /** Holds the address (its row) until the transaction ends: credits of one address queue. */
  async lockAddress(tx: Transaction, address: string): Promise<void> {
    await tx.query(`SELECT 1 FROM deposit_addresses WHERE address = $1 FOR UPDATE`, [address]);
  }

  async find(tx: Transaction, id: string): Promise<TransferRow | null> {
    const rows = await queryRows<RawTransfer>(
      tx,
      `SELECT ${COLUMNS} FROM deposit_transfers WHERE id = $1`,
      [id],
    );
    return rows[0] ? toRow(rows[0]) : null;
  }

  /** The address's final transfers of `asset` waiting for the minimum. */
  async waitingForMinimum(tx: Transaction, address: string, asset: string): Promise<TransferRow[]> {
    const rows = await queryRows<RawTransfer>(
      tx,
      `SELECT ${COLUMNS} FROM deposit_transfers
        WHERE address = $1 AND asset = $2 AND status = 'pending_minimum' ORDER BY seen_at`,
      [address, asset],
    );
    return rows.map(toRow);
  }

  /** confirming -> pending_minimum at the quote in force now; false when it was not confirming. */
  async markWaiting(tx: Transaction, id: string, rate: bigint, at: Date): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      tx,
      `UPDATE deposit_transfers SET status = 'pending_minimum', ssl_per_unit_micro = $2, final_at = $3
        WHERE id = $1 AND status = 'confirming' RETURNING id`,
      [id, rate.toString(), at],
    );
    return rows.length === 1;
  }

  /**
   * confirming or pending_minimum -> credited; false when it had left those states (another
   * path credited it first). The rate is kept when the transfer already had one.
   */
  async markCredited(
    tx: Transaction,
    id: string,
    credit: { rate: bigint; creditMicro: bigint },
    at: Date,
  ): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      tx,
      `UPDATE deposit_transfers
          SET status = 'credited', ssl_per_unit_micro = COALESCE(ssl_per_unit_micro, $2),
              credit_micro = $3, final_at = COALESCE(final_at, $4), credited_at = $4
        WHERE id = $1 AND status IN ('confirming', 'pending_minimum') RETURNING id`,
      [id, credit.rate.toString(), credit.creditMicro.toString(), at],
    );
    return rows.length === 1;
  }

  /** confirming -> refused or dropped (never credited). */
  async markUncredited(
    id: string,
    status: 'refused' | 'dropped',
    reason: DepositRefusal | null,
  ): Promise<boolean> {
    const [, changed] = (await this.dataSource.query(
      `UPDATE deposit_transfers SET status = $2, refused_reason = $3
        WHERE id = $1 AND status = 'confirming'`,
      [id, status, reason],
    )) as [unknown[], number];
    return changed > 0;
  }

  /**
   * The transfers not credited yet (confirming: short of the commitment; pending_minimum: below
   * the minimum), how many and since when, for the metrics: from the partial index of open ones.
   */
  async backlog(): Promise<{ status: string; count: number; oldestSeenAt: Date }[]> {
    const rows = await queryRows<{ status: string; count: number; oldest: Date }>(
      this.dataSource,
      `SELECT status, count(*)::int AS count, min(seen_at) AS oldest FROM deposit_transfers
        WHERE status IN ('confirming', 'pending_minimum') GROUP BY status`,
    );
    return rows.map((r) => ({ status: r.status, count: r.count, oldestSeenAt: r.oldest }));
  }

  /**
   * A credit left funds at the address: the sweep job will move them to the treasury. The time
   * of the latest credit, so that a sweep that read the balances before it does not clear it.
   */
  async markSweepDue(tx: Transaction, address: string, at: Date): Promise<void> {
    await tx.query(
      `UPDATE deposit_addresses SET sweep_due_at = GREATEST(sweep_due_at, $2) WHERE address = $1`,
      [address, at],
    );
  }

  /** The wallet's transfers, newest first. */
  async history(ownerUuid: string, walletKind: WalletKind, limit: number): Promise<TransferRow[]> {
    const rows = await queryRows<RawTransfer>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM deposit_transfers WHERE owner_uuid = $1 AND wallet_kind = $2
        ORDER BY seen_at DESC, id LIMIT $3`,
      [ownerUuid, walletKind, limit],
    );
    return rows.map(toRow);
  }

  /** What waits for the minimum, per currency. */
  async waitingTotals(
    ownerUuid: string,
    walletKind: WalletKind,
  ): Promise<Array<{ currency: NonNullable<TransferRow['currency']>; baseUnits: bigint }>> {
    const rows = await queryRows<{ currency: 'SOL' | 'USDC' | 'USDT'; total: string }>(
      this.dataSource,
      `SELECT currency, sum(base_units) AS total FROM deposit_transfers
        WHERE owner_uuid = $1 AND wallet_kind = $2 AND status = 'pending_minimum'
        GROUP BY currency ORDER BY currency`,
      [ownerUuid, walletKind],
    );
    return rows.map((r) => ({ currency: r.currency, baseUnits: BigInt(r.total) }));
  }
}
